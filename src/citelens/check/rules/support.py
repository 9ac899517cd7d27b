"""Support rules (only with support on: `--support` or `support = true`):
citation_unsupported, citation_weak and support_unchecked, from the support judge's
verdicts (citelens.support). A sentence whose citations all fail gets one finding on its
text instead of one per citation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citelens.check.finding import Finding, Target
from citelens.check.rule import Rule
from citelens.check.view import ReportView
from citelens.source.json_nodes import pointer_join

if TYPE_CHECKING:
    from citelens.support.run import ReportSupport, SupportRun
    from citelens.support.verdict import SupportVerdict

_QUOTE_CHARS = 120


def _quote(verdict: SupportVerdict) -> str:
    text = " ".join(verdict.best_evidence.split())
    if len(text) > _QUOTE_CHARS:
        text = text[: _QUOTE_CHARS - 1].rstrip() + "…"
    return f"“{text}”"


def _add(
    view: ReportView, code: str, severity: str, message: str, tokens: tuple, target: Target, **data
) -> None:
    view.findings.append(
        Finding(code, severity, message, pointer_join(*tokens), target, topic_id=view.topic_id, data=data)  # type: ignore[arg-type]
    )


def check_support(view: ReportView, run: SupportRun, report: ReportSupport | None = None) -> ReportSupport:
    """Add the support findings of one report (its verdicts, if already assembled, in
    `report`); return its verdicts (for the run summary)."""
    from citelens.support.verdict import UNCHECKED_TEXT, Verdict

    if report is None:
        report = run.report(view)
    for s in report.sentences:
        if len(s.verdicts) >= 2 and s.all_fail:
            best = max(s.verdicts, key=lambda v: v.score)
            _add(
                view,
                "citation_unsupported",
                "warning",
                f"none of the {len(s.verdicts)} cited documents supports this sentence (best score "
                f"{best.score:.2f}" + (f"; closest evidence {_quote(best)})" if best.evidence else ")"),
                s.pointer,
                Target.VALUE,
                verdicts=list(s.verdicts),
            )
            continue
        for cited, verdict in zip(s.citations, s.verdicts):
            doc = cited.doc_id
            if verdict.verdict is Verdict.UNSUPPORTED:
                evidence = (
                    f"; closest evidence {_quote(verdict)}"
                    if verdict.evidence
                    else "; no content word of it is there"
                )
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
                    f"evidence {_quote(verdict)})"
                )
                _add(
                    view,
                    "citation_weak",
                    "info",
                    message,
                    cited.pointer,
                    cited.target,
                    verdict=verdict,
                )
            elif verdict.verdict is Verdict.UNCHECKED and verdict.reason is not None:  # off unless turned on
                message = f"support by document {doc!r} not checked: {UNCHECKED_TEXT[verdict.reason]}"
                _add(
                    view,
                    "support_unchecked",
                    "info",
                    message,
                    cited.pointer,
                    cited.target,
                    verdict=verdict,
                )
    return report


RULES = (
    Rule("citation_unsupported", check_support, default_severity="warning", scope="support"),
    Rule("citation_weak", check_support, default_severity="info", scope="support"),
    Rule("support_unchecked", check_support, default_severity="info", scope="support", on_by_default=False),
)
