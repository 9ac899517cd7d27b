"""`TextChange`: one edit of an open document, as an editor sends it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextChange:
    """Replace text[start:end] (code points) by `text`; start = end = None replaces the
    whole text. Offsets refer to the text as it is when this change is applied, so the
    changes of one call apply in order (LSP semantics)."""

    start: int | None
    end: int | None
    text: str

    @classmethod
    def whole(cls, text: str) -> TextChange:
        return cls(None, None, text)
