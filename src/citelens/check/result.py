"""The outcome of checking one file: what the CLI prints and the server publishes."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter, countOf
from typing import Any

from citelens.check.finding import Finding
from citelens.source.line_index import LineIndex

_severity = attrgetter("severity")


@dataclass
class FileResult:
    path: str
    line_index: LineIndex  # of the decoded text; positions of findings index into it
    findings: list[Finding] = field(default_factory=list)
    reports: int = 0  # report values seen (loadable or not)
    support: Any = None  # with support on: a FileSupport (citelens.support.summary)

    def count(self, severity: str) -> int:
        return countOf(map(_severity, self.findings), severity)  # C loops: files can have many
