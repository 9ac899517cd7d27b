"""Offsets <-> line/column, the one place positions change representation.

The engine works in code-point offsets into the whole text. Lines break at `\\n`,
`\\r\\n` and `\\r` only: not at U+2028/U+2029/U+0085 (which `str.splitlines` would split
at, and which real runs do contain inside JSON strings). Columns can be counted in code
points (CLI), UTF-16 code units (LSP default) or UTF-8 bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Literal

Encoding = Literal["utf-32", "utf-16", "utf-8"]
LINE_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    __slots__ = ("starts", "text")

    def __init__(self, text: str):
        self.text = text
        if "\r" in text:
            self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]
        else:  # the common case, several times faster than the regex on big files
            self.starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))][:-1]

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
        return line, _units(self.text[start:offset], encoding)

    def offset(self, line: int, character: int, encoding: Encoding = "utf-32") -> int:
        """Inverse of `position`; positions past the line end clamp to it (LSP rule)."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[line], self.line_end(line)
        if encoding == "utf-32":
            return min(start + max(character, 0), end)
        units = 0
        for i in range(start, end):
            if units >= character:
                return i
            units += _units(self.text[i], encoding)
        return end


def _units(s: str, encoding: Encoding) -> int:
    if encoding == "utf-16":
        return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)
    if encoding == "utf-8":
        return len(s.encode("utf-8", "surrogatepass"))
    return len(s)
