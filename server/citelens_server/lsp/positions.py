"""Code-point offsets <-> LSP positions in the negotiated encoding.

Every range that leaves the server and every position that enters it goes through the
document's `LineIndex` (one per text version, kept by the session), so emoji, CJK, CRLF,
lone CR and raw U+2028 are counted the same way everywhere. Ranges are built as plain
dicts: publishing thousands of diagnostics through cattrs costs more than the check.
"""

from __future__ import annotations

from typing import Any

from citelens.source.line_index import Encoding as Encoding  # the engine's, one for both
from citelens.source.line_index import LineIndex

JsonRange = dict[str, dict[str, int]]


def encoding_name(kind: Any) -> Encoding:
    """The engine's name for an LSP `PositionEncodingKind` (utf-16 for anything odd)."""
    value = str(getattr(kind, "value", kind) or "utf-16").lower()
    return value if value in ("utf-8", "utf-32") else "utf-16"  # type: ignore[return-value]


def position(index: LineIndex, offset: int, encoding: Encoding) -> dict[str, int]:
    line, character = index.position(offset, encoding)
    return {"line": line, "character": character}


def span_range(index: LineIndex, start: int, end: int, encoding: Encoding) -> JsonRange:
    """The LSP range of text[start:end]."""
    return {"start": position(index, start, encoding), "end": position(index, end, encoding)}


def offset_at(index: LineIndex, line: int, character: int, encoding: Encoding) -> int:
    """The code-point offset of an incoming position (clamped past line ends, LSP rule)."""
    convert = getattr(index, "offset_at", None) or index.offset
    return int(convert(line, character, encoding))


def range_offsets(index: LineIndex, rng: Any, encoding: Encoding) -> tuple[int, int]:
    """(start, end) offsets of an incoming lsprotocol `Range`; never reversed."""
    start = offset_at(index, rng.start.line, rng.start.character, encoding)
    end = offset_at(index, rng.end.line, rng.end.character, encoding)
    return (start, end) if start <= end else (end, start)


def lsp_range(index: LineIndex, start: int, end: int, encoding: Encoding) -> Any:
    """The same range as an lsprotocol `Range`, for typed results (hover, edits, symbols)."""
    from lsprotocol import types

    (l1, c1), (l2, c2) = index.position(start, encoding), index.position(end, encoding)
    return types.Range(types.Position(l1, c1), types.Position(l2, c2))


#: the width of U+FEFF in each position encoding
BOM_WIDTH = {"utf-8": 3, "utf-16": 1, "utf-32": 1}


def without_bom(text: str, encoding: str) -> str:
    """The text with a leading byte-order mark read as blanks of the same width."""
    if text.startswith("\ufeff"):
        return " " * BOM_WIDTH.get(encoding, 1) + text[1:]
    return text
