"""The support findings of one report, from its verdicts: what `check --support` says on
each citation token (or on a sentence whose citations all fail)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens.check.finding import Finding, Target
from citelens.check.view import PointerTokens, ReportView
from citelens.source.json_nodes import pointer_join
from citelens.support.verdict import UNCHECKED_TEXT, SupportVerdict, Verdict

if TYPE_CHECKING:
    from citelens.support.reports import ReportSupport

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


def add_support_findings(view: ReportView, report: ReportSupport) -> None:
    """citation_unsupported (warning), citation_weak (info), support_unchecked (info; the
    policy drops it unless turned on)."""
    for s in report.sentences:
        if len(s.verdicts) >= 2 and s.all_fail:
            best = max(s.verdicts, key=lambda v: v.score)
            closest = f"; closest evidence {quote(best)})" if best.evidence else ")"
            _add(
                view,
                "citation_unsupported",
                "warning",
                f"none of the {len(s.verdicts)} cited documents supports this sentence (best score {best.score:.2f}{closest}",
                s.pointer,
                Target.VALUE,
                verdicts=list(s.verdicts),
            )
            continue
        for cited, verdict in zip(s.citations, s.verdicts):
            doc = cited.doc_id
            if verdict.verdict is Verdict.UNSUPPORTED:
                evidence = (
                    f"; closest evidence {quote(verdict)}"
                    if verdict.evidence
                    else "; no content word of it is there"
                )
                if verdict.other_amount:
                    evidence += f"; it gives another amount than {', '.join(verdict.missing_numbers)}"
                message = (
                    f"document {doc!r} does not support this sentence (score {verdict.score:.2f}{evidence})"
                )
                _add(
                    view,
                    "citation_unsupported",
                    "warning",
                    message,
                    cited.pointer,
                    cited.target,
                    verdict=verdict,
                )
            elif verdict.verdict is Verdict.PARTIAL:
                message = (
                    f"document {doc!r} supports this sentence only in part (score {verdict.score:.2f}; "
                    f"evidence {quote(verdict)})"
                )
                _add(view, "citation_weak", "info", message, cited.pointer, cited.target, verdict=verdict)
            elif verdict.verdict is Verdict.UNCHECKED and verdict.reason is not None:
                message = f"support by document {doc!r} not checked: {UNCHECKED_TEXT[verdict.reason]}"
                _add(view, "support_unchecked", "info", message, cited.pointer, cited.target, verdict=verdict)
