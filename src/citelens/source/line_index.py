"""Offsets <-> line/column, the one place positions change representation.

The engine works in code-point offsets into the whole text. Lines break at `\\n`,
`\\r\\n` and `\\r` only: not at U+2028/U+2029/U+0085 (which `str.splitlines` would split
at, and which real runs do contain inside JSON strings). Columns can be counted in code
points (CLI), UTF-16 code units (LSP default) or UTF-8 bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import count
from typing import Literal

from citelens.source.splice import spliced
from citelens.source.text_scan import contains, lf_line_starts

Encoding = Literal["utf-32", "utf-16", "utf-8"]
LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: how many of the edits that made it an index remembers (`edits_since`)
HISTORY = 32
Edit = tuple[int, int, int]  # (start, end, length of the new text), in the text before it

_serials = count(1)


class LineIndex:
    """Where the lines of a text start. An index made by `edited` also knows the last
    `HISTORY` edits that led to it from earlier indexes (their serial numbers, not the
    indexes: their texts are not kept), so a reader of an earlier text can tell which of
    its parts are unchanged without comparing them."""

    __slots__ = ("history", "serial", "starts", "text")

    def __init__(self, text: str):
        self.text = text
        self.serial = next(_serials)
        self.history: tuple[tuple[int, Edit], ...] = ()
        if contains(text, "\r"):  # scans in pieces: a 50 MB text must not hold other threads up
            self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]
        else:  # the common case
            self.starts = lf_line_starts(text)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """0-based line holding `offset` (clamped into the text)."""
        return bisect_right(self.starts, max(0, min(offset, len(self.text)))) - 1

    def line_end(self, line: int, *, with_break: bool = False) -> int:
        if line + 1 < len(self.starts):
            end = self.starts[line + 1]
            if not with_break:
                end -= 2 if self.text.startswith("\r\n", end - 2) else 1
            return end
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.starts[line] : self.line_end(line)]

    def position(self, offset: int, encoding: Encoding = "utf-32") -> tuple[int, int]:
        """(line, character), both 0-based; character in units of `encoding`."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        if encoding == "utf-32":
            return line, offset - start
        return line, count_units(self.text[start:offset], encoding)

    def offset_at(self, line: int, character: int, encoding: Encoding = "utf-32") -> int:
        """Inverse of `position`. Like LSP: a character past the line end clamps to it (the
        break is never entered), a line past the last one is the end of the text, and a
        UTF-16/UTF-8 position inside one character's units moves to its end."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[line], self.line_end(line)
        if encoding == "utf-32":
            return min(start + max(character, 0), end)
        return start + offset_of_units(self.text[start:end], character, encoding)

    offset = offset_at  # the earlier name

    def edited(self, start: int, end: int, new_text: str) -> LineIndex:
        """The index of the text with [start, end) replaced by `new_text`, re-scanning only
        the lines around the edit (a break split or joined at its edges, such as a `\\r`
        meeting a `\\n`, is seen because the lines on both sides are re-scanned too)."""
        old = self.text
        text = spliced(old, start, end, new_text)
        delta = len(new_text) - (end - start)
        starts = self.starts
        first = max(self.line_of(start) - 1, 0)
        last = self.line_of(end) + 2  # first line start kept after the edit (may be past the end)
        scan_from = starts[first]
        scan_to = starts[last] + delta if last < len(starts) else len(text)
        new = LineIndex.__new__(LineIndex)
        new.text = text
        new.serial = next(_serials)
        new.history = (*self.history[1 - HISTORY :], (self.serial, (start, end, len(new_text))))
        if last < len(starts):
            middle = [m.end() for m in LINE_BREAK.finditer(text, scan_from, scan_to) if m.end() < scan_to]
            tail = [s + delta for s in starts[last:]]
        else:
            middle, tail = [m.end() for m in LINE_BREAK.finditer(text, scan_from)], []
        new.starts = starts[: first + 1] + middle + tail
        return new

    def edits_since(self, serial: int) -> list[Edit] | None:
        """The edits, in order, that made this text from the text of the index numbered
        `serial`; None when that index is not among the ones remembered."""
        if serial == self.serial:
            return []
        for i, (before, _edit) in enumerate(self.history):
            if before == serial:
                return [edit for _before, edit in self.history[i:]]
        return None


def moved_span(start: int, end: int, edits: list[Edit] | None) -> tuple[int, int] | None:
    """Where the characters [start, end) of an earlier text are after `edits`, or None when
    an edit touched them (or reached either edge) or the edits are unknown."""
    if edits is None:
        return None
    for s, e, n in edits:
        if e < start:
            start, end = start + n - (e - s), end + n - (e - s)
        elif s <= end:
            return None
    return start, end


def count_units(s: str, encoding: Encoding) -> int:
    """Length of `s` in `encoding` units: code points (utf-32), UTF-16 code units or UTF-8
    bytes. The one unit counter of the engine (the line index and the alignment use it)."""
    if encoding == "utf-32" or s.isascii():
        return len(s)
    if encoding == "utf-16":
        return len(s.encode("utf-16-le", "surrogatepass")) // 2
    if encoding == "utf-8":
        return len(s.encode("utf-8", "surrogatepass"))
    raise ValueError(f"unknown position encoding {encoding!r}; use utf-8, utf-16 or utf-32")


def offset_of_units(s: str, units: int, encoding: Encoding) -> int:
    """The code-point offset in `s` reached after `units` units of `encoding` (clamped to
    0..len(s); a count that ends inside a character's units gives the character's end).
    Counted by the codecs (a position on a long non-ASCII line, once per character in
    Python, was most of the time of a burst of edits)."""
    if units <= 0:
        return 0
    if encoding == "utf-32" or s.isascii():
        return min(units, len(s))
    if encoding == "utf-16":
        data = s.encode("utf-16-le", "surrogatepass")
        if 2 * units >= len(data):
            return len(s)
        # a cut between a pair's halves decodes to the lone high half: one code point
        # more, so the offset is the character's end
        return len(data[: 2 * units].decode("utf-16-le", "surrogatepass"))
    if encoding == "utf-8":
        data = s.encode("utf-8", "surrogatepass")
        if units >= len(data):
            return len(s)
        try:
            return len(data[:units].decode("utf-8", "surrogatepass"))
        except UnicodeDecodeError as exc:  # the count ends inside a character: its end
            return len(data[: exc.start].decode("utf-8", "surrogatepass")) + 1
    raise ValueError(f"unknown position encoding {encoding!r}; use utf-8, utf-16 or utf-32")
