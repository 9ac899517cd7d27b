"""The reports of an open document, kept across edits.

For JSON lines, an edit re-reads only the lines it touched (and one line on each side,
where a line break can be split or joined): the reports before it are kept as they are,
the reports after it are moved by the edit's length change, and their checked outcome
(findings relative to the report) stays valid because their text did not change. Array
and single-object files are re-read whole (the checker's per-report cache still spares
re-checking the unchanged reports), as is any edit that changes the layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from citelens.check.finding import Finding
from citelens.check.rules.coverage import ReportFacts
from citelens.source.document import (
    Item,
    Layout,
    SourceFile,
    TextProblem,
    detect_layout,
    line_spans,
    nul_problems,
    read_item,
    read_source,
)
from citelens.source.json_scan import JsonSyntaxError
from citelens.source.line_index import LineIndex


@dataclass(slots=True)
class Outcome:
    """A report's checked outcome: findings relative to the report start (severities
    applied) and its facts for the cross-report rules (`index` kept current)."""

    findings: list[Finding]
    facts: ReportFacts | None


class Reports:
    """Text, line index, layout and report items of one document version, plus each
    item's cached outcome (None: not checked yet)."""

    def __init__(self, text: str, problems: list[TextProblem] | None = None) -> None:
        source = read_source(text, problems)
        self.lines: LineIndex = source.line_index
        self.layout: Layout = source.layout
        self.items: list[Item] = source.items
        self.problems: list[TextProblem] = source.problems
        self.syntax: JsonSyntaxError | None = source.syntax
        self.outcomes: list[Outcome | None] = [None] * len(self.items)

    @property
    def text(self) -> str:
        return self.lines.text

    def source(self) -> SourceFile:
        return SourceFile(self.text, self.lines, self.layout, self.items, self.problems, self.syntax)

    def forget_outcomes(self) -> None:
        self.outcomes = [None] * len(self.items)

    def replace(self, start: int, end: int, new_text: str) -> None:
        """Apply one edit (offsets clamped into the text, in order)."""
        old = self.lines
        size = len(old.text)
        start = max(0, min(start, size))
        end = max(start, min(end, size))
        if start == end and not new_text:
            return
        lines = old.edited(start, end, new_text)
        layout, _ = detect_layout(lines.text, lines)
        if layout != "jsonl" or self.layout != "jsonl":
            outcomes = {self.text[i.start : i.end]: o for i, o in zip(self.items, self.outcomes) if o}
            self._reread(lines)
            self.outcomes = [outcomes.get(lines.text[i.start : i.end]) for i in self.items]
            return
        self._edit_lines(old, lines, start, end, len(new_text) - (end - start))

    def _reread(self, lines: LineIndex) -> None:
        source = read_source(lines.text)
        self.lines, self.layout, self.items = source.line_index, source.layout, source.items
        self.problems, self.syntax = source.problems, source.syntax

    def _edit_lines(self, old: LineIndex, lines: LineIndex, start: int, end: int, delta: int) -> None:
        """Re-read the JSON lines around one edit; move the reports after it."""
        text = lines.text
        first = max(old.line_of(start) - 1, 0)  # the lines LineIndex.edited re-scanned
        last = old.line_of(end) + 2
        region_start = old.starts[first]
        if last < old.line_count:
            region_end = old.starts[last]
            new_last = last + lines.line_count - old.line_count
        else:
            region_end = len(old.text) + 1
            new_last = lines.line_count
        items, outcomes = self.items, self.outcomes
        lo = _first_at_or_after(items, region_start)
        hi = _first_at_or_after(items, region_end, lo)
        # the re-scanned lines: a report whose text is unchanged keeps its outcome
        before = {old.text[i.start : i.end]: k for k, i in enumerate(items[lo:hi], lo)}
        middle: list[Item] = []
        middle_outcomes: list[Outcome | None] = []
        for start_, end_ in line_spans(text, lines, first, new_last):
            index = lo + len(middle)
            k = before.pop(text[start_:end_], None)
            if k is None:
                middle.append(read_item(text, index, start_, end_))
                middle_outcomes.append(None)
            else:
                middle.append(_moved(items[k], text, index, start_ - items[k].start))
                middle_outcomes.append(outcomes[k])
        shift = lo + len(middle) - hi
        moved = [_moved(item, text, item.index + shift, delta) for item in items[hi:]]
        self.items = items[:lo] + middle + moved
        self.outcomes = outcomes[:lo] + middle_outcomes + outcomes[hi:]
        self.lines = lines
        self.problems = nul_problems(text)
        self.syntax = None


def _moved(item: Item, text: str, index: int, by: int) -> Item:
    """An unchanged report at its new place: its decoded value kept when nothing in it
    holds an offset (the usual case), else read again where it now is."""
    if item.syntax is None and not item.problems and item._node is None:
        return Item(index, item.start + by, item.end + by, item.value)
    return read_item(text, index, item.start + by, item.end + by)


def _first_at_or_after(items: list[Item], offset: int, lo: int = 0) -> int:
    hi = len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].start < offset:
            lo = mid + 1
        else:
            hi = mid
    return lo
