"""The outcome of checking one file: what the CLI prints and the server publishes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citelens.check.finding import Finding
from citelens.source.line_index import LineIndex


@dataclass
class FileResult:
    path: str
    line_index: LineIndex  # of the decoded text; positions of findings index into it
    findings: list[Finding] = field(default_factory=list)
    reports: int = 0  # report values seen (loadable or not)
    support: list[Any] | None = None  # ReportSupport per report, with support on

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)
