"""Scans over a whole text in bounded pieces.

`"\\r" in text` or `text.split("\\n")` is one C call over all of it: on a 50 MB document
(100 MB in memory when one character is past U+00FF) it holds the interpreter for tens of
milliseconds, and in a language server every other thread waits, the one answering a
hover on another file among them. These give the same answers a piece at a time, at about
the same cost.
"""

from __future__ import annotations

import sys
from itertools import accumulate

#: characters scanned by one C call
PIECE = 1 << 20
#: characters from which a join goes a piece at a time (below: one join, a few
#: milliseconds at most, and faster: growing a text in place costs page faults)
JOIN_PIECEWISE = 4 << 20


def contains(text: str, char: str) -> bool:
    """`char in text` (one character), a piece at a time."""
    return any(text.find(char, lo, lo + PIECE) >= 0 for lo in range(0, len(text), PIECE))


def lf_line_starts(text: str) -> list[int]:
    """The offsets at which the lines of `text` start, lines ending at `\\n` only: 0 and
    the offset after every `\\n`. Each piece is split, not scanned in Python: several times
    faster than a regex on big files."""
    starts = [0]
    for lo in range(0, len(text), PIECE):
        after_breaks = accumulate((len(line) + 1 for line in text[lo : lo + PIECE].split("\n")), initial=lo)
        starts += list(after_breaks)[1:-1]
    return starts


def pieces(text: str, start: int, end: int) -> list[str]:
    """`text[start:end]` as slices of at most `PIECE` characters, for a join that makes a
    new text from parts of an old one: slicing a 50 MB tail whole was a second copy of it
    in one C call before the join's own."""
    return [text[lo : min(lo + PIECE, end)] for lo in range(start, end, PIECE)]


def joined(parts: list[str]) -> str:
    """`"".join(parts)`, copied a piece of at most `PIECE` characters at a time: the join of
    a 50 MB text is one C call (tens of milliseconds) during which no other thread runs.
    The text grows in place (CPython's `+=` on a string nothing else refers to, its
    memory resized by `realloc`), so it is still copied once; elsewhere, one join."""
    if sum(map(len, parts)) < JOIN_PIECEWISE or sys.implementation.name != "cpython":
        return "".join(parts)
    out = ""
    for part in parts:
        for lo in range(0, len(part), PIECE):
            out += part[lo : lo + PIECE]  # in place: `out` is this frame's alone
    return out
