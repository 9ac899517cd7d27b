"""Code point offsets (used everywhere in the engine) to UTF-16 and UTF-8 units for editors."""

from __future__ import annotations

from bisect import bisect_left


class OffsetMap:
    """Converts code point offsets of one text to UTF-16 code units or UTF-8 bytes.

    Only characters outside the Basic Multilingual Plane change UTF-16 lengths and only
    non-ASCII characters change UTF-8 lengths, so the map stores just those positions;
    an ASCII text costs nothing.
    """

    def __init__(self, text: str) -> None:
        self.length = len(text)
        if text.isascii():
            self._astral: list[int] = []
            self._wide: list[tuple[int, int]] = []
            return
        self._astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]
        wide: list[tuple[int, int]] = []  # (position, extra bytes), cumulative below
        extra = 0
        for i, ch in enumerate(text):
            code = ord(ch)
            if code > 0x7F:
                extra += 1 if code <= 0x7FF else 2 if code <= 0xFFFF else 3
                wide.append((i, extra))
        self._wide = wide

    def _check(self, offset: int) -> None:
        if not 0 <= offset <= self.length:
            raise ValueError(f"offset {offset} outside 0..{self.length}")

    def utf16(self, offset: int) -> int:
        """UTF-16 code units before code point ``offset``."""
        self._check(offset)
        return offset + bisect_left(self._astral, offset)

    def utf8(self, offset: int) -> int:
        """UTF-8 bytes before code point ``offset``."""
        self._check(offset)
        k = bisect_left(self._wide, (offset, -1))
        return offset + (self._wide[k - 1][1] if k else 0)

    def span(self, start: int, end: int, encoding: str = "utf-16") -> tuple[int, int]:
        """A half-open span in ``utf-16``, ``utf-8`` or ``utf-32`` (code points) units."""
        if encoding == "utf-32":
            self._check(start)
            self._check(end)
            return start, end
        convert = self.utf16 if encoding == "utf-16" else self.utf8 if encoding == "utf-8" else None
        if convert is None:
            raise ValueError(f"unknown encoding {encoding!r}")
        return convert(start), convert(end)


def to_utf16(text: str, offset: int) -> int:
    return OffsetMap(text).utf16(offset)


def to_utf8(text: str, offset: int) -> int:
    return OffsetMap(text).utf8(offset)
