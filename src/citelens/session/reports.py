"""The reports of an open document, kept across edits.

For JSON lines, an edit re-reads only the lines it touched (and one line on each side,
where a line break can be split or joined): the reports before it are kept as they are,
the reports after it are moved by the edit's length change, and their checked outcome
(findings relative to the report) stays valid because their text did not change. So is
an edit strictly inside one valid element of an array of reports that leaves it one
valid value. Anything else (an edit across elements, one that breaks an element, a
single pretty-printed report, a changed layout) re-reads the whole file; the reports
whose text is unchanged still keep their outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from citelens.check.finding import Finding
from citelens.check.rules.coverage import ReportFacts
from citelens.source.json_scan import JsonSyntaxError, parse
from citelens.source.line_index import LineIndex
from citelens.source.run_text import (
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
        #: a kept outcome may belong to a report whose index changed (its facts' index is
        #: stale) since `OpenDocument.result` last cleared this
        self.renumbered = False

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
        if layout == self.layout == "array" and self._edit_element(lines, start, end, new_text):
            return
        if layout != "jsonl" or self.layout != "jsonl":
            # a report's outcome is kept when its text is (a broken one's may depend on
            # what follows it, so it is checked again)
            outcomes = {
                self.text[i.start : i.end]: o for i, o in zip(self.items, self.outcomes) if o and i.ok
            }
            self._reread(lines)
            self.outcomes = [outcomes.get(lines.text[i.start : i.end]) if i.ok else None for i in self.items]
            self.renumbered = True
            return
        self._edit_lines(old, lines, start, end, new_text)

    def _reread(self, lines: LineIndex) -> None:
        source = read_source(lines.text)
        self.lines, self.layout, self.items = source.line_index, source.layout, source.items
        self.problems, self.syntax = source.problems, source.syntax

    def _edit_element(self, lines: LineIndex, start: int, end: int, new_text: str) -> bool:
        """An edit strictly inside one valid element of an array of reports, which is
        still one valid value filling the same place: read that element again, move the
        ones after it. False (nothing changed) when the edit is anything else."""
        items = self.items
        k = _first_at_or_after(items, start) - 1
        if k < 0 or not (items[k].ok and items[k].start < start and end < items[k].end):
            return False
        if any(not earlier.ok and earlier.end >= start for earlier in items[:k]):
            return False  # inside a broken element's span too (it runs on to the end of input)
        item, delta, text = items[k], len(new_text) - (end - start), lines.text
        new_end = item.end + delta
        try:
            parsed = parse(text, item.start, new_end)
        except JsonSyntaxError:
            return False
        if (parsed.node.start, parsed.node.end) != (item.start, new_end):
            return False  # now with blanks at an edge: let the whole array be read again
        items[k] = Item(k, item.start, new_end, parsed.value, None, parsed.problems, parsed.node)
        self.outcomes[k] = None
        _all_moved(items[k + 1 :], 0, delta)
        if self.syntax is not None and self.syntax.offset >= end:
            self.syntax = JsonSyntaxError(self.syntax.message, self.syntax.offset + delta)
        self._after_edit(lines, new_text)
        return True

    def _after_edit(self, lines: LineIndex, new_text: str) -> None:
        self.lines = lines
        if self.problems or "\x00" in new_text:  # NULs are the only problems after an edit
            self.problems = nul_problems(lines.text)

    def _edit_lines(self, old: LineIndex, lines: LineIndex, start: int, end: int, new_text: str) -> None:
        """Re-read the JSON lines around one edit; move the reports after it."""
        text = lines.text
        delta = len(new_text) - (end - start)
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
                self.renumbered |= k != index
                middle.append(_moved(items[k], index, start_ - items[k].start))
                middle_outcomes.append(outcomes[k])
        later = items[hi:]
        shift = lo + len(middle) - hi
        self.renumbered |= bool(shift and later)
        _all_moved(later, shift, delta)
        self.items = items[:lo] + middle + later
        self.outcomes = outcomes[:lo] + middle_outcomes + outcomes[hi:]
        self._after_edit(lines, new_text)
        self.syntax = None


def _all_moved(items: list[Item], shift: int, by: int) -> None:
    """`_moved` of every report after an edit (their index `shift`ed), with the common case
    inline: thousands of reports move on each keystroke in a big file, and most hold no
    offsets of their own besides their span."""
    for item in items:
        if shift:
            item.index += shift
        if by:
            item.start += by
            item.end += by
            if item.syntax is not None or item.problems or item._node is not None:
                _inner_moved(item, by)


def _moved(item: Item, index: int, by: int) -> Item:
    """An unchanged report moved to its new place, in place (the items belong to this
    document alone): its decoded value is kept, and the offsets it holds (a syntax
    error, value problems, a node tree built for a position) move with it."""
    item.index = index
    if by:
        item.start += by
        item.end += by
        _inner_moved(item, by)
    return item


def _inner_moved(item: Item, by: int) -> None:
    """The offsets a moved report holds besides its span, moved with it."""
    if item.syntax is not None:
        item.syntax.offset += by
    for p in item.problems:
        p.start += by
        p.end += by
        if p.first_key:
            p.first_key = (p.first_key[0] + by, p.first_key[1] + by)
    if item._node is not None:
        for node in item._node.walk():
            node.start += by
            node.end += by
            for m in node.members:
                m.key_start += by
                m.key_end += by


def _first_at_or_after(items: list[Item], offset: int, lo: int = 0) -> int:
    hi = len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].start < offset:
            lo = mid + 1
        else:
            hi = mid
    return lo
