"""The document a citation cites, and where its evidence is: what a hover shows and what
go to definition opens.

The document comes from the report itself first (its `documents`, then the `doc`s
embedded in its `ranking`), then from the workspace's configured sources (`corpora`),
the same chain the checker and the support judge use. The verdict is the support
judge's (`OpenDocument.support_at`: the one `citelens check --support` reports), and
its evidence offsets point into the document's text. That text is placed either in a
file that holds it (the report's own embedded document, a plain corpus file's line),
or in a rendered read-only view (a header, then the text) for every other source.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citelens.source.json_locate import locate_in_text
from citelens.source.json_nodes import pointer_join
from citelens.source.json_string_map import raw_offsets

if TYPE_CHECKING:
    from citelens.session.lookup import CitationInfo
    from citelens.session.open_document import OpenDocument
    from citelens.support.verdict import SupportVerdict

EMBEDDED_DOCUMENTS = "the report's documents"
EMBEDDED_RANKING = "the report's ranking"
#: evidence passages further apart than this are not selected as one range (the first is)
MAX_SELECTION = 2000
#: corpus files an editor can open at a line (compressed ones are shown rendered)
PLAIN_CORPUS_SUFFIXES = (".jsonl", ".json", ".ndjson")


@dataclass(frozen=True)
class CitedDocument:
    """A cited document as the reader sees it: `origin` names where it came from (a
    corpus file and line, a service, the report); `pointer` is where it sits in the
    report (embedded documents); `file`/`line` where its record is (corpus files)."""

    doc_id: str
    text: str
    title: str | None
    origin: str
    pointer: str | None = None
    text_key: str | None = None  # the member of the embedded entry holding `text`
    file: str | None = None
    line: int | None = None  # 1-based
    stands_in_for: str | None = None
    fields: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class CitedEvidence:
    """A citation, its document (None: not found; `unavailable` says why when a source
    could not answer) and the support judge's verdict (None: the sentence has no text)."""

    citation: CitationInfo
    document: CitedDocument | None
    unavailable: str | None
    verdict: SupportVerdict | None


@dataclass(frozen=True)
class FilePlace:
    """Where evidence is in a file: `start`/`end` are offsets into `text`, whose first line
    is line `line` (0-based) of the file; `path` None means the open document itself."""

    path: Path | None
    line: int
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class RenderedDocument:
    """A document as a read-only view shows it, and the evidence's span in that text."""

    text: str
    selection: tuple[int, int] | None


def cited_evidence(doc: OpenDocument, offset: int) -> CitedEvidence | None:
    """The citation under `offset` with its document and verdict (None: no citation there)."""
    citation = doc.citation_at(offset)
    if citation is None or citation.doc_id is None:
        return None
    found, why = cited_document(doc, citation.report, citation.doc_id)
    judged = doc.support_at(citation.start)
    return CitedEvidence(citation, found, why, judged[1] if judged is not None else None)


def decoded_report(doc: OpenDocument, report: int) -> Mapping[str, Any] | None:
    """The JSON object of report item `report`, or None (no such item, not an object)."""
    items = doc.items
    if not 0 <= report < len(items):
        return None
    item = items[report].decoded(doc.text)
    return item.value if item.syntax is None and isinstance(item.value, Mapping) else None


def cited_document(doc: OpenDocument, report: int, doc_id: str) -> tuple[CitedDocument | None, str | None]:
    """(the document, None) or (None, why not when a source could not answer)."""
    value = decoded_report(doc, report)
    if value is not None:
        found = embedded_document(value, doc_id)
        if found is not None:
            return found, None
    chain = doc.workspace.sources_for(doc.settings)
    if chain is None:
        return None, None
    from citelens.corpus import lookup_one

    hit, why = lookup_one(chain, doc_id)
    if hit is None:
        return None, why
    return (
        CitedDocument(
            doc_id,
            hit.text,
            hit.title,
            hit.origin or chain.describe(),
            file=hit.file,
            line=hit.line,
            stands_in_for=hit.stands_in_for,
            fields=hit.fields,
        ),
        None,
    )


def embedded_document(report: Mapping[str, Any], doc_id: str) -> CitedDocument | None:
    """A document the report carries: in `documents` (a map by id, or a list) with the
    text the support judge reads from it, else a `doc` embedded in its `ranking`."""
    from citelens.support.document_text import ID_FIELDS, document_text

    documents = report.get("documents")
    entries: list[tuple[str, Any]] = []
    if isinstance(documents, Mapping):
        entries = [(pointer_join("documents", doc_id), documents.get(doc_id))]
    elif isinstance(documents, list):
        entries = [
            (pointer_join("documents", i), d)
            for i, d in enumerate(documents)
            if isinstance(d, Mapping) and any(str(d.get(k)) == doc_id for k in ID_FIELDS if k in d)
        ]
    for pointer, entry in entries:
        text = document_text(entry)
        if text is not None:
            return CitedDocument(
                doc_id,
                text,
                _title(entry),
                EMBEDDED_DOCUMENTS,
                pointer,
                text_key=_key_holding(entry, text),
            )
    ranking = report.get("ranking")
    for i, item in enumerate(ranking if isinstance(ranking, list) else []):
        if not isinstance(item, Mapping):
            continue
        nested = "ranked_docs" in item
        ranked = item.get("ranked_docs") if nested else [item]
        for j, entry in enumerate(ranked if isinstance(ranked, list) else []):
            if not isinstance(entry, Mapping) or entry.get("doc_id") != doc_id:
                continue
            body = entry.get("doc")
            if isinstance(body, Mapping) and isinstance(body.get("text"), str):
                pointer = (
                    pointer_join("ranking", i, "ranked_docs", j, "doc")
                    if nested
                    else pointer_join("ranking", i, "doc")
                )
                return CitedDocument(
                    doc_id, body["text"], _title(body), EMBEDDED_RANKING, pointer, text_key="text"
                )
    return None


def _title(entry: Any) -> str | None:
    title = entry.get("title") if isinstance(entry, Mapping) else None
    return title if isinstance(title, str) and title else None


def _key_holding(entry: Any, text: str) -> str | None:
    if isinstance(entry, Mapping):
        return next((k for k, v in entry.items() if v == text), None)
    return None


def evidence_span(text: str, verdict: SupportVerdict | None) -> tuple[int, int] | None:
    """The span of the verdict's evidence in `text`: all its passages when they lie close
    together, else the first one (None: no evidence, or not in this text)."""
    if verdict is None:
        return None
    spans = []
    for piece in verdict.evidence:
        if text[piece.start : piece.end] == piece.text:
            spans.append((piece.start, piece.end))
        elif piece.text and (at := text.find(piece.text)) >= 0:
            spans.append((at, at + len(piece.text)))
    if not spans:
        return None
    whole = (min(s for s, _ in spans), max(e for _, e in spans))
    return whole if whole[1] - whole[0] <= MAX_SELECTION else spans[0]


def render(document: CitedDocument, verdict: SupportVerdict | None) -> RenderedDocument:
    """The read-only view of a document: `id:`, `title:`, `from:` lines, a blank line,
    then its text; the evidence's span is given in that text."""
    head = [f"id: {document.doc_id}"]
    if document.title:
        head.append(f"title: {document.title}")
    head.append(f"from: {document.origin}")
    if document.stands_in_for:
        head.append(f"stands in for: {document.stands_in_for} (that segment is not available)")
    prefix = "\n".join(head) + "\n\n"
    span = evidence_span(document.text, verdict)
    selection = (len(prefix) + span[0], len(prefix) + span[1]) if span else None
    return RenderedDocument(prefix + document.text, selection)


def evidence_place(doc: OpenDocument, cited: CitedEvidence) -> FilePlace | None:
    """Where a file holds the cited document, with its evidence (or the whole document)
    selected: the report's embedded entry, or the line of a plain corpus file. None: no
    file holds it as written (a compressed corpus, a service): use `render`."""
    document = cited.document
    if document is None:
        return None
    span = evidence_span(document.text, cited.verdict)
    if document.pointer is not None:
        item = doc.items[cited.citation.report]
        return _in_json(None, 0, doc.text, item.start, document.pointer, document.text_key, span)
    if document.file is None or document.line is None or document.stands_in_for:
        return None
    path = Path(document.file)
    if not path.name.lower().endswith(PLAIN_CORPUS_SUFFIXES):
        return None
    line_text = _read_line(path, document.line)
    if line_text is None:
        return None
    key = _key_holding(document.fields, document.text)
    return _in_json(path, document.line - 1, line_text, 0, "", key, span)


def _in_json(
    path: Path | None,
    line: int,
    text: str,
    start: int,
    pointer: str,
    key: str | None,
    span: tuple[int, int] | None,
) -> FilePlace | None:
    whole = locate_in_text(text, start, pointer)
    if whole is None:
        return None
    if key is not None and span is not None:
        literal = locate_in_text(text, start, pointer + pointer_join(key))
        offsets = raw_offsets(text[literal[0] : literal[1]]) if literal else None
        if literal and offsets and span[1] < len(offsets):
            return FilePlace(path, line, text, literal[0] + offsets[span[0]], literal[0] + offsets[span[1]])
    return FilePlace(path, line, text, whole[0], whole[1])


def _read_line(path: Path, number: int) -> str | None:
    """Line `number` (1-based) of a file, without its line break."""
    try:
        with path.open("rb") as handle:
            raw = next(itertools.islice(handle, number - 1, None), None)
    except OSError:
        return None
    if raw is None:
        return None
    return raw.decode("utf-8", errors="replace").rstrip("\r\n")


def document_json(document: CitedDocument) -> dict[str, Any]:
    """The document as the show-document command answers it."""
    out: dict[str, Any] = {"id": document.doc_id, "title": document.title, "origin": document.origin}
    if document.stands_in_for:
        out["stands_in_for"] = document.stands_in_for
    out["text"] = document.text
    return out


__all__ = [
    "CitedDocument",
    "CitedEvidence",
    "FilePlace",
    "RenderedDocument",
    "cited_document",
    "cited_evidence",
    "document_json",
    "embedded_document",
    "evidence_place",
    "evidence_span",
    "render",
]
