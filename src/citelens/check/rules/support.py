"""Support rules (only with support on: `--support` or `support = true`):
citation_unsupported, citation_little_evidence, citation_weak and support_unchecked.

The verdicts and their messages come from the support layer (`citelens.support`, which
sits above this one): the checker is handed a `SupportHook` and this rule asks it to add
the findings of one report. A sentence whose citations all fail gets one finding on its
text instead of one per citation."""

from __future__ import annotations

from typing import Any, Protocol

from citelens.check.rule import Rule
from citelens.check.view import ReportView


class SupportHook(Protocol):
    """What the checker needs from `citelens.support.run.SupportRun`."""

    def prepare(self, views: list[ReportView]) -> list[Any]:
        """Judge every citation of these reports at once; each report's support, in order."""
        ...

    def add_findings(self, view: ReportView, report: Any | None = None) -> Any:
        """Add the support findings of one report to `view.findings`."""
        ...

    def file_support(self, reports: list[Any]) -> Any:
        """The support part of a file's result, from its reports' support."""
        ...

    def finished_file(self, text: str, context: str) -> Any | None:
        """A file's finished support (`.findings`, `.support`) if nothing it came from changed."""
        ...

    def remember_file(self, text: str, context: str, findings: list[Any], support: Any) -> None:
        """Keep a file's finished support for `finished_file`."""
        ...


def check_support(view: ReportView, hook: SupportHook, report: Any | None = None) -> Any:
    """citation_unsupported / citation_little_evidence / citation_weak / support_unchecked for one report."""
    return hook.add_findings(view, report)


RULES = (
    Rule("citation_unsupported", check_support, default_severity="warning", scope="support"),
    Rule("citation_little_evidence", check_support, default_severity="info", scope="support"),
    Rule("citation_weak", check_support, default_severity="info", scope="support"),
    Rule("support_unchecked", check_support, default_severity="info", scope="support", on_by_default=False),
)
