"""The outcome of checking one file: what the CLI prints and the server publishes."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter, countOf
from typing import Any

from citelens.check.finding import RELATED_AT, RELATED_IN, Finding, finding_order, placed
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

    def findings_meeting(self, start: int, end: int) -> list[Finding]:
        """The findings whose span meets `start`..`end` (touching counts), in file order:
        what a hover or a code action at a place looks at."""
        return [f for f in self.findings if f.start <= end and f.end >= start]

    def code_counts(self) -> Counter[str]:
        return Counter(f.code for f in self.findings)


def places_related(f: Finding) -> bool:
    """Whether `placed_in_file` moves related places of `f` too, not only its span."""
    data = f.data
    return bool(data) and (RELATED_AT in data or RELATED_IN in data)


def placed_in_file(f: Finding, at: int, starts: list[int]) -> Finding:
    """A finding kept relative to its report (which starts at `at`) placed in the file;
    related places kept relative to other reports (`RELATED_IN`) are placed by `starts`."""
    g = placed(f, at)
    data = f.data
    if not data or RELATED_IN not in data:
        return g
    moved = {key: value for key, value in data.items() if key != RELATED_IN}
    start = g.start
    moved[RELATED_AT] = tuple(
        (m, starts[r] + s - start, starts[r] + e - start) for m, r, s, e in data[RELATED_IN]
    )
    return Finding(
        g.code, g.severity, g.message, g.pointer, g.target, g.start, g.end, g.topic_id, g.fix, moved
    )


class PlacedOnRead(FileResult):
    """A file's result kept as its reports' findings relative to each report, placed in
    the file only when `findings` is read.

    After a one-character edit of a run with thousands of findings, every report below the
    edit has moved; placing all their findings again was most of an editor's time per
    keystroke, though the diagnostics of unchanged reports can be reused as they are and a
    hover or code action looks at one place. Report `k` starts at `starts[k]`; its findings
    (its own and the file-level ones in it) are `relative[k]`, offsets relative to its
    start, in file order: a list that is the same object while the texts of the report and
    of the reports `links[k]` it relates to are unchanged. `head` holds the findings
    before the first report, placed. With `in_order`, the reports partition the file
    (report `k`'s findings start at or after `starts[k]` and before `starts[k + 1]`): true
    of JSON lines, where a report is one line; otherwise `findings` sorts them all.
    """

    def __init__(
        self,
        path: str,
        line_index: LineIndex,
        *,
        head: list[Finding],
        starts: list[int],
        relative: list[Sequence[Finding]],
        links: dict[int, tuple[int, ...]],
        in_order: bool,
    ) -> None:
        self.path, self.line_index, self.reports, self.support = path, line_index, len(starts), None
        self.head, self.starts, self.relative, self.links = head, starts, relative, links
        self.in_order = in_order
        self._findings: list[Finding] | None = None
        self._counts: Counter[str] | None = None

    def report_findings(self, k: int) -> list[Finding]:
        """Report `k`'s findings in the file, in file order."""
        at, starts = self.starts[k], self.starts
        return [placed_in_file(f, at, starts) for f in self.relative[k]]

    @property
    def findings(self) -> list[Finding]:
        if self._findings is None:
            out = list(self.head)
            for k, found in enumerate(self.relative):
                if found:
                    out += self.report_findings(k)
            if not self.in_order:
                out.sort(key=finding_order)
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
            self._counts = counts
        return self._counts
