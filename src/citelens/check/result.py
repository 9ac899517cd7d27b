"""The outcome of checking one file: what the CLI prints and the server publishes."""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter, countOf
from typing import Any

from citelens.check.finding import Finding, placed
from citelens.source.line_index import LineIndex

_severity = attrgetter("severity")
_order = attrgetter("start", "end", "code")


@dataclass
class FileResult:
    path: str
    line_index: LineIndex  # of the decoded text; positions of findings index into it
    findings: list[Finding] = field(default_factory=list)
    reports: int = 0  # report values seen (loadable or not)
    support: Any = None  # with support on: a FileSupport (citelens.support.summary)

    def count(self, severity: str) -> int:
        return countOf(map(_severity, self.findings), severity)  # C loops: files can have many

    def findings_meeting(self, start: int, end: int) -> list[Finding]:
        """The findings whose span meets `start`..`end` (touching counts), in file order:
        what a hover or a code action at a place looks at."""
        return [f for f in self.findings if f.start <= end and f.end >= start]

    def code_counts(self) -> Counter[str]:
        return Counter(f.code for f in self.findings)


class PlacedOnRead(FileResult):
    """A file's result kept as its reports' findings relative to each report, placed in
    the file only when `findings` is read.

    After a one-character edit of a run with thousands of findings, every report below the
    edit has moved; placing all their findings again was most of an editor's time per
    keystroke, though the diagnostics of unchanged reports can be reused as they are and a
    hover or code action looks at one place. Report `k` starts at `starts[k]`; its findings
    are `relative[k]` (offsets from its start, in file order: the report's cached outcome,
    the same list while its text is unchanged) and `extra[k]`, the file-level findings
    that start in it (file offsets, in file order); `head` holds those before the first
    report. With `in_order`, the reports partition the file (report `k`'s findings start
    at or after `starts[k]` and before `starts[k + 1]`): true of JSON lines, where a report
    is one line; otherwise `findings` sorts them all.
    """

    def __init__(
        self,
        path: str,
        line_index: LineIndex,
        *,
        head: list[Finding],
        starts: list[int],
        relative: list[Sequence[Finding]],
        extra: dict[int, list[Finding]],
        in_order: bool,
    ) -> None:
        self.path, self.line_index, self.reports, self.support = path, line_index, len(starts), None
        self.head, self.starts, self.relative, self.extra = head, starts, relative, extra
        self.in_order = in_order
        self._findings: list[Finding] | None = None
        self._counts: Counter[str] | None = None

    def report_findings(self, k: int) -> list[Finding]:
        """Report `k`'s findings in the file, in file order (each file-level one before its
        equals, as a stable sort of file-level then report findings puts them)."""
        at = self.starts[k]
        mine = [placed(f, at) for f in self.relative[k]]
        extra = self.extra.get(k)
        if not extra:
            return mine
        return list(heapq.merge(extra, mine, key=_order)) if mine else list(extra)

    @property
    def findings(self) -> list[Finding]:
        if self._findings is None:
            out = list(self.head)
            relative, extra = self.relative, self.extra
            for k in range(len(relative)):
                if relative[k] or k in extra:
                    out += self.report_findings(k)
            if not self.in_order:
                out.sort(key=_order)
            self._findings = out
        return self._findings

    @findings.setter
    def findings(self, value: list[Finding]) -> None:
        self._findings = value

    def findings_meeting(self, start: int, end: int) -> list[Finding]:
        if self._findings is not None or not self.in_order:
            return super().findings_meeting(start, end)
        # the report before the one holding `start` too: a finding may end past its report
        first = max(bisect_right(self.starts, start) - 2, 0)
        last = bisect_right(self.starts, end)
        near = list(self.head)
        for k in range(first, last):
            near += self.report_findings(k)
        return [f for f in near if f.start <= end and f.end >= start]

    def code_counts(self) -> Counter[str]:
        """How many findings of each code (counted once: a code action asks on every
        cursor move)."""
        if self._counts is None:
            counts = Counter(f.code for f in self.head)
            for found in self.relative:
                counts.update(f.code for f in found)
            for found in self.extra.values():
                counts.update(f.code for f in found)
            self._counts = counts
        return self._counts
