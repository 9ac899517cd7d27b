"""JSON decoding of a big message in pieces, so the thread doing it lets others run.

`json.loads` is one C call: on a 50 MB `didOpen` it holds the GIL for the whole string,
and every other thread (the event loop answering a hover on another file) waits. Here
the bytes are decoded to text in slices, and each long string value (the document's
text) is scanned by the same C `scanstring` in pieces cut at safe points: never inside an
escape, never between the two halves of an escaped surrogate pair. Between pieces the
interpreter can switch threads. The structure around the strings is parsed by the
standard library's pure-Python scanner, which is slow per token but a message this big
is one huge string in a few small objects.

A UTF-8 body (what LSP clients send) is not even decoded whole: each long string value
is read straight from the bytes, a piece at a time, and left out of the text that is
parsed (a marker stands in its place and is swapped for the value after). Decoding a 50 MB
body to one string and then joining the document's pieces into another were two C calls
of 70 ms or more each (a copy of 100 MB when the text has a character past U+00FF); now
the value is joined a piece at a time too. Anything this path does not take (another encoding,
a byte-order mark, a broken message) is decoded by the general path below.

The result equals `json.loads(body)` (a property test holds it to that), errors included
as far as their message and position go.
"""

from __future__ import annotations

import codecs
import json
import json.decoder
import json.scanner
import os
import re
import sys
from collections.abc import Callable
from typing import Any

#: characters of a string value scanned at a time (a few milliseconds of C each)
PIECE = 1 << 18
#: pieces from which a value is joined a piece at a time (below, about 4 million
#: characters: one join, a few milliseconds, and faster than growing it in place)
JOIN_PARTS = 16
#: the first piece of each string (most strings end in it)
FIRST_PIECE = 256
#: bytes of the body decoded to text at a time
SLICE = 1 << 20
#: bodies from which decoding goes piecewise (smaller ones: one `json.loads`)
BIG = 1 << 20
#: bytes from which a string value is read apart from the rest of a UTF-8 body
LONG_STRING = 1 << 16

_scanstring: Callable[..., tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
#: the longest escape (\\uXXXX)
_ESCAPE = 6
#: positions tried before a cut
_LOOK_BACK = 64


def loads(body: bytes | bytearray) -> Any:
    """`json.loads(body)`, in pieces when the body is big."""
    if len(body) < BIG:
        return json.loads(body)
    if json.detect_encoding(body) == "utf-8":
        try:
            return loads_utf8(body)
        except (ValueError, _NotTaken):  # a broken message: the general path says where
            pass
    return _decoder().decode(decode_text(body))


class _NotTaken(Exception):
    """The body is not one the long-string path reads (the general path decodes it)."""


_BLANKS = re.compile(rb"[ \t\n\r]*")


def loads_utf8(body: bytes | bytearray) -> Any:
    """A UTF-8 body's value, its long string values read apart from the bytes (`_string_at`)
    and the rest parsed by one `json.loads` of what is left. ValueError (or `_NotTaken`)
    when the body is not valid JSON."""
    nonce = os.urandom(8).hex()
    values: dict[str, str] = {}
    rest: list[bytes | bytearray] = []
    pos = last = 0
    while (quote := body.find(b'"', pos)) >= 0:  # outside strings: each quote opens one
        value, end = _string_at(body, quote + 1)
        after = _BLANKS.match(body, end)
        is_key = after is not None and body[after.end() : after.end() + 1] == b":"
        if end - quote > LONG_STRING and not is_key:
            marker = f"{nonce}:{len(values)}"
            values[marker] = value
            rest += (body[last:quote], f'"{marker}"'.encode())
            last = end
        pos = end
    if not values:
        raise _NotTaken  # no long string: nothing to gain
    rest.append(body[last:])
    return _filled(json.loads(b"".join(rest)), values)


def _string_at(body: bytes | bytearray, start: int) -> tuple[str, int]:
    """The value of the JSON string whose content starts at byte `start` (just after its
    opening quote), and the index just after its closing quote. The bytes are decoded and
    unescaped a piece at a time (pieces doubling from `FIRST_PIECE` to `PIECE`), each cut
    between two characters and where `safe_cut` allows, and joined a piece at a time
    (`_joined`)."""
    parts: list[str] = []
    pos, size, n = start, FIRST_PIECE, len(body)
    while True:
        hi = min(pos + size, n)
        while hi < n and 0x80 <= body[hi] < 0xC0:  # not between the bytes of one character
            hi -= 1
        piece = body[pos:hi].decode("utf-8", "surrogatepass")
        keep = len(piece)
        if hi < n:
            cut = safe_cut(piece, 0, len(piece))
            if cut is None:  # no safe point near the piece's end: a longer piece
                size *= 2
                continue
            keep = cut
        chunk, after = _scanstring(piece[:keep] + '"', 0, True)
        parts.append(chunk)
        if after <= keep:  # the string's own closing quote
            return _joined(parts), pos + len(piece[:after].encode("utf-8", "surrogatepass"))
        if hi >= n:
            raise _NotTaken  # unterminated
        pos = hi - len(piece[keep:].encode("utf-8", "surrogatepass"))
        size = min(size * 2, PIECE)


def _joined(parts: list[str]) -> str:
    """`"".join(parts)` a piece at a time (as the engine's `text_scan.joined`, which the
    server may not import): the 50 MB value grows in place (CPython's `+=` on a string
    nothing else refers to), so it is copied once, but no single C call copies all of it
    (one that did held every other thread up for 70 ms)."""
    if len(parts) < JOIN_PARTS or sys.implementation.name != "cpython":
        return "".join(parts)
    out = ""
    for part in parts:
        out += part  # in place: `out` is this frame's alone
    return out


def _filled(value: Any, values: dict[str, str]) -> Any:
    """`value` with each marker string replaced by the string it stands for."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                if item in values:
                    value[key] = values[item]
            elif isinstance(item, (dict, list)):
                _filled(item, values)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                if item in values:
                    value[i] = values[item]
            elif isinstance(item, (dict, list)):
                _filled(item, values)
    elif isinstance(value, str) and value in values:
        return values[value]
    return value


def decode_text(body: bytes | bytearray) -> str:
    """The body as text, decoded as `json.loads` decodes bytes (its encoding detection,
    surrogatepass), a slice at a time."""
    encoding = json.detect_encoding(body)
    decoder = codecs.getincrementaldecoder(encoding)("surrogatepass")
    view = memoryview(body)
    parts = [decoder.decode(view[i : i + SLICE]) for i in range(0, len(view), SLICE)]
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)  # the codec drops a byte-order mark, as json.loads's does


def scan_string(s: str, end: int, strict: bool = True) -> tuple[str, int]:
    """`json.decoder.scanstring(s, end, strict)`, a piece at a time. Pieces start small and
    double up to `PIECE`, so the copying stays proportional to the string's length (a big
    message of many short strings is not copied a `PIECE` per string)."""
    parts: list[str] = []
    pos, size = end, FIRST_PIECE
    while len(s) - pos > size:
        cut = safe_cut(s, pos, pos + size)
        if cut is None:
            break  # no safe point near the piece's end: the rest in one call
        piece = s[pos:cut] + '"'
        try:
            chunk, after = _scanstring(piece, 0, strict)
        except json.JSONDecodeError as exc:
            raise json.JSONDecodeError(exc.msg, s, pos + exc.pos) from None
        parts.append(chunk)
        if after < len(piece):  # the string's own closing quote is in this piece
            return "".join(parts), pos + after
        pos, size = cut, min(size * 2, PIECE)
    try:
        chunk, after = _scanstring(s, pos, strict)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Unterminated string"):
            raise json.JSONDecodeError(exc.msg, s, end - 1) from None
        raise
    if not parts:
        return chunk, after
    parts.append(chunk)
    return "".join(parts), after


def safe_cut(s: str, lo: int, cut: int) -> int | None:
    """The nearest position at or before `cut` (and after `lo`, a safe point) where a
    string can be split: not inside an escape, nor right after an escaped high surrogate
    (None: none within a few escapes of `cut`, e.g. a long run of high surrogates)."""
    for candidate in range(cut, max(cut - _LOOK_BACK, lo + _ESCAPE), -1):
        if _splits_nothing(s, lo, candidate):
            return candidate
    return None


def _splits_nothing(s: str, lo: int, cut: int) -> bool:
    for k in range(cut - 1, max(cut - 1 - _ESCAPE, lo - 1), -1):
        if not _escape_starts(s, lo, k):
            continue
        if k + 1 >= len(s):
            return False
        length = _ESCAPE if s[k + 1] == "u" else 2
        if k + length > cut:
            return False  # inside this escape
        # the nearest escape ends before the cut; an escaped high surrogate's low half may follow
        return not (length == _ESCAPE and k + length == cut and _high_surrogate(s[k + 2 : k + 6]))
    return True


def _escape_starts(s: str, lo: int, k: int) -> bool:
    """Whether s[k] is a backslash that starts an escape (an even run of backslashes
    before it, counted back to `lo`, where no escape is open)."""
    if s[k] != "\\":
        return False
    j = k
    while j > lo and s[j - 1] == "\\":
        j -= 1
    return (k - j) % 2 == 0


def _high_surrogate(digits: str) -> bool:
    try:
        return 0xD800 <= int(digits, 16) <= 0xDBFF
    except ValueError:
        return False


def _decoder() -> json.JSONDecoder:
    """A decoder whose string values go through `scan_string` (the pure-Python scanner is
    the one that reads `parse_string`; the C one has its own)."""
    decoder = json.JSONDecoder()
    decoder.parse_string = scan_string  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder
