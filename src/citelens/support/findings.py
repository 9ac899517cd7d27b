"""The support findings of one report, from its verdicts: what `check --support` says on
each citation token (or on a sentence whose citations all fail)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens.check.finding import Finding, Target
from citelens.check.view import PointerTokens, ReportView
from citelens.source.json_nodes import pointer_join
from citelens.support.verdict import HIGH, LEXICAL, UNCHECKED_TEXT, SupportVerdict, Verdict

if TYPE_CHECKING:
    from citelens.support.reports import CitedPair, ReportSupport

_QUOTE_CHARS = 120


def quote(verdict: SupportVerdict) -> str:
    """The evidence as a short quotation (several places joined by "...")."""
    text = " ".join(verdict.best_evidence.split())
    if len(text) > _QUOTE_CHARS:
        text = text[: _QUOTE_CHARS - 1].rstrip() + "…"
    return f"“{text}”"


def _add(
    view: ReportView,
    code: str,
    severity: Any,
    message: str,
    tokens: PointerTokens,
    target: Target,
    **data: Any,
) -> None:
    view.findings.append(
        Finding(code, severity, message, pointer_join(*tokens), target, topic_id=view.topic_id, data=data)
    )


#: words listed as "not found" in a message (the JSON and the hover list them all)
_MISSING_SHOWN = 6


def _not_found(verdict: SupportVerdict) -> str:
    words = verdict.missing_terms
    if not words:
        return ""
    shown = ", ".join(words[:_MISSING_SHOWN]) + (", …" if len(words) > _MISSING_SHOWN else "")
    return f"; not found: {shown}"


def _basis(verdict: SupportVerdict) -> str:
    """What the verdict rests on, as its judge can tell it."""
    if verdict.judge != LEXICAL:
        answer = f" answered {verdict.answer.strip()[:40]!r}" if verdict.answer else ""
        return f"{verdict.judge}{answer}"
    return f"lexical: {verdict.matched_terms} of {verdict.content_terms} content words found, score {verdict.score:.2f}"


def _unsupported(view: ReportView, doc: str, cited: CitedPair, verdict: SupportVerdict) -> None:
    if verdict.evidence:
        evidence = f"; closest evidence {quote(verdict)}"
    elif verdict.judge == LEXICAL:
        evidence = "; no content word of it is there"
    else:
        evidence = ""
    if verdict.other_amount:
        evidence += f"; it gives another amount than {', '.join(verdict.missing_numbers)}"
    if verdict.tier == HIGH:
        message = f"document {doc!r} does not support this sentence ({_basis(verdict)}{_not_found(verdict)}{evidence})"
        code, severity = "citation_unsupported", "warning"
    else:
        message = (
            f"weak evidence from document {doc!r}: some words of this sentence are there, too few to call it "
            f"support ({_basis(verdict)}{_not_found(verdict)}{evidence})"
        )
        code, severity = "citation_little_evidence", "info"
    _add(view, code, severity, message, cited.pointer, cited.target, verdict=verdict)


def add_support_findings(view: ReportView, report: ReportSupport) -> None:
    """citation_unsupported (warning: the high tier), citation_little_evidence (info: an
    "unsupported" of the low tier), citation_weak (info: partial), support_unchecked (info;
    the policy drops it unless turned on)."""
    for s in report.sentences:
        if len(s.verdicts) >= 2 and s.all_fail:
            best = max(s.verdicts, key=lambda v: v.score)
            closest = f"; closest evidence {quote(best)})" if best.evidence else ")"
            high = all(v.tier == HIGH for v in s.verdicts)
            lead = (
                f"none of the {len(s.verdicts)} cited documents supports this sentence"
                if high
                else f"weak evidence: none of the {len(s.verdicts)} cited documents covers enough of this sentence"
            )
            _add(
                view,
                "citation_unsupported" if high else "citation_little_evidence",
                "warning" if high else "info",
                f"{lead} (best score {best.score:.2f}{closest}",
                s.pointer,
                Target.VALUE,
                verdicts=list(s.verdicts),
            )
            continue
        for cited, verdict in zip(s.citations, s.verdicts):
            doc = cited.doc_id
            if verdict.verdict is Verdict.UNSUPPORTED:
                _unsupported(view, doc, cited, verdict)
            elif verdict.verdict is Verdict.PARTIAL:
                if verdict.judge == LEXICAL:
                    basis = f"{_basis(verdict)}; meaning not checked{_not_found(verdict)}"
                else:
                    basis = _basis(verdict)
                if verdict.uncovered_clauses:
                    basis += f"; not covered: “{verdict.uncovered_clauses[0]}”"
                evidence = f"; evidence {quote(verdict)}" if verdict.evidence else ""
                message = f"document {doc!r} supports this sentence only in part ({basis}{evidence})"
                _add(view, "citation_weak", "info", message, cited.pointer, cited.target, verdict=verdict)
            elif verdict.verdict is Verdict.UNCHECKED and verdict.reason is not None:
                message = f"support by document {doc!r} not checked: {UNCHECKED_TEXT[verdict.reason]}"
                _add(view, "support_unchecked", "info", message, cited.pointer, cited.target, verdict=verdict)
