"""Hovers: a citation's document and evidence, a sentence's citations, a finding's rule.

Every piece of report or document text is escaped before it becomes Markdown; clients
that take only plain text get the same content unformatted. The hover's range is exactly
the node's span.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens_server.features import hover_fields
from citelens_server.features.evidence import evidence_at, shown, sources_described
from citelens_server.lsp import markdown
from citelens_server.lsp.json_text import Json
from citelens_server.lsp.positions import JsonRange, span_range
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import CitationInfo, FileResult, Finding, OpenDocument
    from citelens_server.lsp.markdown import Format
    from citelens_server.runtime.problems import Problem

log = logging.getLogger("citelens_server")

VERDICT_ICON = {"supported": "✔", "partial": "◐", "unsupported": "✘", "unchecked": "○"}


def hover(ls: CiteLensServer, params: types.HoverParams) -> Json | None:
    """The hover as JSON text (`Json`): it is asked for on every pause of the mouse, and
    a `Hover` through cattrs costs more than finding what it shows.

    The last answer is kept with the document's result it was made from: an editor asks
    again at the same place (a mouse resting, a burst of edits on other lines, answered
    before them: change_queue.py), and the same text, findings and settings give the
    same hover. One whose cited document was not found is not kept (a corpus may answer
    the next time)."""
    at = ls.document_at(params)
    if at is None:
        return None
    doc, offset = at
    index = doc.line_index
    fmt: Format = markdown.Markdown() if _takes_markdown(ls) else markdown.PlainText()
    problem = ls.problem(doc)
    if problem is not None:  # the check failed: say why there is nothing to show
        return _hover_json(
            fmt.kind, problem_text(problem, fmt), span_range(index, offset, offset, ls.encoding)
        )
    key, result = (doc.uri, offset, fmt.kind, ls.generation), _result(doc)
    last = ls.last_hover
    if last is not None and result is not None and last[0] == key and last[1] is result:
        return last[2]
    built = build_hover(ls, doc, offset, fmt)
    if built is None:
        return None
    lines, (start, end), settled = built
    answer = _hover_json(fmt.kind, "\n\n".join(lines), span_range(index, start, end, ls.encoding))
    ls.last_hover = (key, result, answer) if settled and result is not None else None
    return answer


def _result(doc: OpenDocument) -> FileResult | None:
    """The document's current result (None if it cannot be made: nothing is kept then)."""
    try:
        return doc.result
    except Exception:
        return None


def _hover_json(kind: str, value: str, rng: JsonRange) -> Json:
    return Json({"contents": {"kind": kind, "value": value}, "range": rng})


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_HOVER, None, hover),
]


#: the findings of the support verdicts, whose facts the citation part of a hover shows
SUPPORT_CODES = frozenset(
    ("citation_unsupported", "citation_little_evidence", "citation_weak", "support_unchecked")
)


def problem_text(problem: Problem, fmt: Format) -> str:
    """The hover of a document whose check failed: why no evidence or finding is shown."""
    head = fmt.bold("No evidence or findings can be shown")
    return f"{head}: {fmt.text(problem.message)}"


def build_hover(
    ls: CiteLensServer, doc: OpenDocument, offset: int, fmt: Format
) -> tuple[list[str], tuple[int, int], bool] | None:
    """(Markdown paragraphs, the span they are about, whether every cited document in
    them was found) at `offset`, or None."""
    parts: list[str] = []
    span: tuple[int, int] | None = None
    settled = True  # every cited document shown was found
    citation = doc.citation_at(offset)
    if citation is not None:
        text, settled = citation_markdown(ls, doc, citation, fmt)
        parts.append(text)
        span = (citation.start, citation.end)
    else:
        sentence = doc.sentence_at(offset)
        if sentence is not None:
            parts.append(
                f"{fmt.bold(f'Sentence {sentence.index + 1}')} · {len(sentence.citations)} citation(s)"
            )
            for c in sentence.citations:
                text, found = citation_markdown(ls, doc, c, fmt)
                parts.append(text)
                settled = settled and found
            span = (sentence.start, sentence.end)
    if span is None:  # a references entry, a metadata field (field_hover.py)
        more = hover_fields.build(doc, offset, fmt)
        if more is not None:
            parts, span = more
    judged = bool(parts)  # a citation or sentence part: it holds the support verdicts
    for finding in _findings_at(doc, offset):
        if judged and finding.code in SUPPORT_CODES:
            # the verdict above says it all: the code and its documentation, not the message again
            parts.append(finding_markdown(finding, fmt, message=False))
        else:
            parts.append(finding_markdown(finding, fmt))
        if span is None:
            span = (finding.start, finding.end)
    if not parts or span is None:
        return None
    return parts, span, settled


def citation_markdown(
    ls: CiteLensServer, doc: OpenDocument, citation: CitationInfo, fmt: Format
) -> tuple[str, bool]:
    """The cited document (id, title, origin), the support judge's verdict and its
    evidence; and whether the document was found."""
    doc_id = citation.doc_id
    if doc_id is None:
        return f"{fmt.bold('Citation')} that resolves to no document (see the diagnostic here)", True
    head = fmt.bold(fmt.text(doc_id))
    if citation.score is not None:
        head += f" · cited with score {citation.score:g}"
    lines = [head]
    cited = evidence_at(doc, citation.start)
    found = cited.document if cited is not None else None
    if found is None:
        why = cited.unavailable if cited is not None else None
        sources = sources_described(doc)
        if why:
            lines.append(f"The document's text is not at hand: {fmt.text(why)}")
        elif sources:
            lines.append(f"The document is in neither the report nor {fmt.text(sources)}.")
        else:
            lines.append(
                "The document's text is not at hand (not embedded in the report; no corpus configured)."
            )
    else:
        if found.title:
            lines.append(fmt.italic(fmt.text(found.title)))
        origin = f"from {fmt.text(found.origin)}"
        if found.stands_in_for:
            origin += f" (its parent document: the segment {fmt.text(found.stands_in_for)} is not available)"
        lines.append(origin)
    if cited is not None and cited.verdict is not None:
        sentence = doc.sentence_at(citation.start)
        ev = shown(ls, sentence.text if sentence else None, cited.verdict)
        detail = f" (support score {ev.score:.2f})" if ev.score is not None else ""
        if ev.reason:
            detail = f": {fmt.text(ev.reason)}"
        lines.append(f"{VERDICT_ICON.get(ev.verdict, '')} {fmt.bold(ev.verdict)}{detail}")
        if ev.judge:
            lines.append(fmt.italic(fmt.text(ev.judge)))
        if ev.passage and ev.passage_at is not None:
            lines.append(fmt.quote(fmt.marked(ev.passage)))
            lines.append(fmt.text(f"(characters {ev.passage_at[0]}-{ev.passage_at[1]} of the document)"))
        elif ev.marked:
            lines.append(fmt.quote(fmt.marked(ev.marked)))
        lines.extend(fmt.text(fact) for fact in ev.facts)
    return "\n\n".join(lines), found is not None


def finding_markdown(finding: Finding, fmt: Format, *, message: bool = True) -> str:
    from citelens.session.catalog import docs_uri, summary

    text = fmt.bold(fmt.text(finding.code))
    if message:
        text += f": {fmt.text(finding.message)}"
    about = summary(finding.code)
    if about:
        text += f"\n\n{fmt.text(about)}"
    href = docs_uri(finding.code)
    if href:
        text += "\n\n" + fmt.link(f"Documentation of {fmt.text(finding.code)}", href)
    return text


def _findings_at(doc: OpenDocument, offset: int) -> list[Finding]:
    try:
        near = doc.result.findings_meeting(offset, offset)
    except Exception:
        log.exception("findings for the hover")
        return []
    return [f for f in near if f.start <= offset < f.end][:3]


def _takes_markdown(ls: CiteLensServer) -> bool:
    formats = None
    td = ls.client_capabilities.text_document
    if td is not None and td.hover is not None:
        formats = td.hover.content_format
    return not formats or types.MarkupKind.Markdown in formats
