"""`didChange` params built straight from their JSON: what lsprotocol's converter makes of
them, without it.

Typing makes a notification per keystroke; structuring each through cattrs and handing it
through pygls's dispatch costs about 0.3 ms, most of a burst's time. The shape is
checked here as the converter checks it (a uri, an integer version, changes with a text
and maybe a range of unsigned positions); anything else returns None and takes pygls's
path, which says what does not fit. tests/server/test_internals.py pins the equality
with pygls's structuring.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

#: the largest `uinteger` of the LSP specification
UINTEGER_MAX = 2**31 - 1


def _uinteger(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value <= UINTEGER_MAX else None


def _position(value: Any) -> types.Position | None:
    if type(value) is not dict:
        return None
    line, character = _uinteger(value.get("line")), _uinteger(value.get("character"))
    if line is None or character is None:
        return None
    return types.Position(line=line, character=character)


def _change(value: Any) -> Any:
    if type(value) is not dict or type(value.get("text")) is not str:
        return None
    if "range" not in value:
        return types.TextDocumentContentChangeWholeDocument(text=value["text"])
    rng = value["range"]
    if type(rng) is not dict:
        return None
    start, end = _position(rng.get("start")), _position(rng.get("end"))
    length = value.get("rangeLength")
    if start is None or end is None or not (length is None or _uinteger(length) is not None):
        return None
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text=value["text"], range_length=length
    )


def change_params(value: Any) -> types.DidChangeTextDocumentParams | None:
    """The params of a `textDocument/didChange` message, or None if they are not of the
    shape an editor sends (pygls structures those and reports what is wrong)."""
    if type(value) is not dict:
        return None
    document, changes = value.get("textDocument"), value.get("contentChanges")
    if type(document) is not dict or type(changes) is not list:
        return None
    uri, version = document.get("uri"), document.get("version")
    if type(uri) is not str or type(version) is not int:
        return None
    try:  # lsprotocol's validators: a version or position out of range
        content = tuple(_change(c) for c in changes)
        if any(c is None for c in content):
            return None
        return types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=content,
        )
    except (TypeError, ValueError):
        return None
