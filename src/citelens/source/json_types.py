"""JSON's own names for decoded values, for messages: "an array", never "list" or "NoneType";
`true`, `null`, never `True`, `None`."""

from __future__ import annotations

from typing import Any

#: Python type of a decoded JSON value -> JSON's name for it, with its article
JSON_TYPE_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}
#: plural of each name, for "an array of strings and numbers"
JSON_TYPE_PLURALS: dict[str, str] = {
    "an object": "objects",
    "an array": "arrays",
    "a string": "strings",
    "a number": "numbers",
    "a boolean": "booleans",
    "null": "nulls",
}


def json_type(value: Any) -> str:
    """JSON's name of a decoded value's type, with its article ("an array", "null")."""
    return JSON_TYPE_NAMES.get(type(value), "an unknown value")


def json_shown(value: Any, width: int = 40) -> str:
    """A decoded value as a message shows it: `true`/`false`/`null` as JSON writes them,
    a number or a (quoted) string as written, a container by its type name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json_type(value)
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."
