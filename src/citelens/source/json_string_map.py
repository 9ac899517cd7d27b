"""Where each character of a decoded JSON string sits in its literal.

An evidence passage is found in a document's decoded text; selecting it in the file that
holds the document (a corpus line, a report's embedded document) needs the literal's
columns, which differ wherever the string has escapes (`\\n`, `\\"`, `\\u00e9`, a
surrogate pair `\\ud83d\\ude00` that decodes to one character).
"""

from __future__ import annotations

_SIMPLE_ESCAPES = frozenset('"\\/bfnrt')


def raw_offsets(literal: str) -> list[int] | None:
    """For the JSON string literal `literal` (with its quotes): the offset in `literal` of
    each decoded character, plus one entry for the closing quote (so an end offset maps
    too). None when `literal` is not a well-formed string literal."""
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        return None
    out: list[int] = []
    i, end = 1, len(literal) - 1
    while i < end:
        ch = literal[i]
        if ch != "\\":
            out.append(i)
            i += 1
            continue
        kind = literal[i + 1 : i + 2]
        if kind in _SIMPLE_ESCAPES and kind:
            out.append(i)
            i += 2
        elif kind == "u" and i + 6 <= end:
            out.append(i)
            code = int(literal[i + 2 : i + 6], 16)
            pair = literal[i + 6 : i + 8] == "\\u" and i + 12 <= end
            if 0xD800 <= code < 0xDC00 and pair and 0xDC00 <= int(literal[i + 8 : i + 12], 16) < 0xE000:
                i += 12  # a surrogate pair: one character
            else:
                i += 6
        else:
            return None
    out.append(end)
    return out
