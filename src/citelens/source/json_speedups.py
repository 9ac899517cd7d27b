"""The json module's C scanners, typed (typeshed leaves them out), and the step over JSON
whitespace that the hand-written scanners of this package take between tokens."""

from __future__ import annotations

import re
from collections.abc import Callable
from json.decoder import JSONDecoder
from typing import TYPE_CHECKING, Any, cast

__all__ = ["scan_value", "scanstring", "skip_whitespace"]

#: `[ \t\n\r]*` matches at every offset (maybe empty), so its `match` never gives None:
#: `skip_whitespace(text, pos).end()` is the offset of the next non-blank character
skip_whitespace = cast("Callable[[str, int], re.Match[str]]", re.compile(r"[ \t\n\r]*").match)

if TYPE_CHECKING:

    def scanstring(s: str, end: int, strict: bool = True, /) -> tuple[str, int]:
        """The string whose opening quote is at `end - 1`, and the offset after its closing quote."""

    def scan_value(s: str, idx: int, /) -> tuple[Any, int]:
        """The JSON value at `idx`, and the offset after it; StopIteration when none starts there."""

else:
    from json.decoder import scanstring

    scan_value = JSONDecoder().scan_once
