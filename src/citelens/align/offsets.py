"""Code point offsets (used everywhere in the engine) to UTF-16 and UTF-8 units for editors.

The counting is the engine's one unit converter (`citelens.source.line_index`); this map
adds the bounds check and span form the alignment API offers.
"""

from __future__ import annotations

from citelens.source.line_index import count_units


class OffsetMap:
    """Converts code point offsets of one text to UTF-16 code units or UTF-8 bytes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.length = len(text)

    def _check(self, offset: int) -> None:
        if not 0 <= offset <= self.length:
            raise ValueError(f"offset {offset} outside 0..{self.length}")

    def utf16(self, offset: int) -> int:
        """UTF-16 code units before code point ``offset``."""
        self._check(offset)
        return count_units(self.text[:offset], "utf-16")

    def utf8(self, offset: int) -> int:
        """UTF-8 bytes before code point ``offset``."""
        self._check(offset)
        return count_units(self.text[:offset], "utf-8")

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
