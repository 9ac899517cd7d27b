"""`didChange` params built straight from their JSON: what lsprotocol's converter makes of
them, without it.

Typing makes a notification per keystroke; structuring each through cattrs and handing it
through pygls's dispatch costs about 0.3 ms, most of a burst's time. The shape is
checked here as the converter checks it (a uri, an integer version, changes with a text
and maybe a range of unsigned positions); anything else returns None and takes pygls's
path, which says what does not fit. tests/server/test_internals.py pins the equality
with pygls's structuring.

The objects are built through their slots (`_builder`): lsprotocol's validating
constructors took about 1.6 us each, six per keystroke, most of reading one; the values are
checked here first, as their validators would check them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lsprotocol import types

#: the largest `uinteger` of the LSP specification, and the range of its `integer`
UINTEGER_MAX = 2**31 - 1
INTEGER_MIN, INTEGER_MAX = -(2**31), 2**31 - 1


def _builder(cls: type, *fields: str) -> Callable[..., Any]:
    """A function making `cls` from the values of `fields`, in that order, set straight
    into its slots (no validator runs: the callers check the values). When `cls` is not a
    slotted class with exactly these fields (another lsprotocol), its own constructor."""
    slots = tuple(name for name in getattr(cls, "__slots__", ()) if name != "__weakref__")
    found = [getattr(cls.__dict__.get(name), "__set__", None) for name in fields]
    setters: list[Callable[[Any, Any], None]] = [put for put in found if put is not None]
    if sorted(slots) != sorted(fields) or len(setters) != len(fields):
        return lambda *values: cls(**dict(zip(fields, values)))
    new: Callable[[type], Any] = object.__new__
    if len(setters) == 2:  # four of a keystroke's six objects: without the loop below
        put_a, put_b = setters

        def build2(a: Any, b: Any) -> Any:
            made = new(cls)
            put_a(made, a)
            put_b(made, b)
            return made

        return build2

    def build(*values: Any) -> Any:
        made = new(cls)
        for put_value, value in zip(setters, values):
            put_value(made, value)
        return made

    return build


_position = _builder(types.Position, "line", "character")
_range = _builder(types.Range, "start", "end")
_partial_change = _builder(types.TextDocumentContentChangePartial, "range", "text", "range_length")
_whole_change = _builder(types.TextDocumentContentChangeWholeDocument, "text")
_document = _builder(types.VersionedTextDocumentIdentifier, "uri", "version")
_did_change = _builder(types.DidChangeTextDocumentParams, "text_document", "content_changes")


def _uinteger(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value <= UINTEGER_MAX else None


def _position_of(value: Any) -> types.Position | None:
    if type(value) is not dict:
        return None
    line, character = _uinteger(value.get("line")), _uinteger(value.get("character"))
    if line is None or character is None:
        return None
    return _position(line, character)  # type: ignore[no-any-return]


def _change(value: Any) -> Any:
    if type(value) is not dict or type(value.get("text")) is not str:
        return None
    if "range" not in value:
        return _whole_change(value["text"])
    rng = value["range"]
    if type(rng) is not dict:
        return None
    start, end = _position_of(rng.get("start")), _position_of(rng.get("end"))
    length = value.get("rangeLength")
    if start is None or end is None or not (length is None or _uinteger(length) is not None):
        return None
    return _partial(start, end, value["text"], length)


def _partial(start: types.Position, end: types.Position, text: str, length: int | None) -> Any:
    return _partial_change(_range(start, end), text, length)


def _params(uri: str, version: int, changes: tuple[Any, ...]) -> types.DidChangeTextDocumentParams:
    return _did_change(_document(uri, version), changes)  # type: ignore[no-any-return]


def change_params(value: Any) -> types.DidChangeTextDocumentParams | None:
    """The params of a `textDocument/didChange` message, or None if they are not of the
    shape an editor sends (pygls structures those and reports what is wrong)."""
    if type(value) is not dict:
        return None
    document, changes = value.get("textDocument"), value.get("contentChanges")
    if type(document) is not dict or type(changes) is not list:
        return None
    uri, version = document.get("uri"), document.get("version")
    if type(uri) is not str or type(version) is not int or not INTEGER_MIN <= version <= INTEGER_MAX:
        return None
    content = tuple(_change(c) for c in changes)
    if any(c is None for c in content):
        return None
    return _params(uri, version, content)


# --- straight from the message's bytes ------------------------------------------------
# A keystroke's message as editors write it, key by key: `json.loads` and the walk above
# cost about 14 us of a burst's ~30 per message; this pattern reads the same values in
# about 2. Any other spelling (keys in another order, an escape in a string, a number
# JSON would not read so) does not match, and takes the path above.

_WS = rb"[ \t\n\r]*"
_UINT = rb"(0|[1-9][0-9]{0,8})"  # JSON's integers, small enough for a `uinteger`
_STR = rb'"([^"\\\x00-\x1f]*)"'  # a JSON string without escapes


def _json_pattern(*parts: bytes) -> re.Pattern[bytes]:
    """`parts` joined by optional JSON whitespace: keys, punctuation and captures."""
    return re.compile(_WS.join(parts))


_HEAD = _json_pattern(
    rb"\A\{", rb'"jsonrpc"', rb":", rb'"2\.0"', rb",", rb'"method"', rb":", rb'"textDocument/didChange"',
    rb",", rb'"params"', rb":", rb"\{", rb'"textDocument"', rb":", rb"\{", rb'"uri"', rb":", _STR, rb",",
    rb'"version"', rb":", _UINT, rb"\}", rb",", rb'"contentChanges"', rb":", rb"\[", b"",
)  # fmt: skip
_CHANGE = _json_pattern(
    rb"\{", rb'"range"', rb":", rb"\{", rb'"start"', rb":", rb"\{", rb'"line"', rb":", _UINT, rb",",
    rb'"character"', rb":", _UINT, rb"\}", rb",", rb'"end"', rb":", rb"\{", rb'"line"', rb":", _UINT, rb",",
    rb'"character"', rb":", _UINT, rb"\}", rb"\}", rb",", rb'(?:"rangeLength"', rb":", _UINT, rb",",
    rb")?" + rb'"text"', rb":", _STR, rb"\}", rb"(,|\])", b"",
)  # fmt: skip
_TAIL = _json_pattern(b"", rb"\}", rb"\}", rb"\Z")


def change_from_bytes(body: bytes | bytearray) -> types.DidChangeTextDocumentParams | None:
    """The params of a `didChange` notification read from its body, when it is spelled
    as editors spell a keystroke's (see above); None otherwise (`change_params` of its
    decoded JSON then says). The same objects: tests/server/test_change_bytes.py."""
    head = _HEAD.match(body)
    if head is None:
        return None
    try:
        uri = head.group(1).decode("utf-8")
        changes = []
        at, more = head.end(), True
        while more:
            change = _CHANGE.match(body, at)
            if change is None:
                return None
            sl, sc, el, ec, length, text, after = change.groups()
            start, end = _position(int(sl), int(sc)), _position(int(el), int(ec))
            changes.append(
                _partial(start, end, text.decode("utf-8"), None if length is None else int(length))
            )
            at, more = change.end(), after == b","
        if _TAIL.match(body, at) is None:
            return None
        return _params(uri, int(head.group(2)), tuple(changes))
    except UnicodeDecodeError:  # not UTF-8: left to the decoder, which says so
        return None
