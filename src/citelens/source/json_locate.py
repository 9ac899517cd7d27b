"""Place a JSON pointer on the text without building a node tree.

`locate_in_text` walks only the path the pointer names: it reads member keys with the
json module's C string scanner and steps over every other value with its C value
scanner, so placing a finding costs about one `json.loads` of the report instead of a
pure-Python positioned parse. The answer is the same span `json_nodes.locate` gives on
the report's node tree (same rules for value, key and missing targets; the last of
duplicate keys wins). It returns None when it cannot walk the text (e.g. nesting too
deep for the C scanner); the caller then builds the node tree.
"""

from __future__ import annotations

import re
from json.decoder import JSONDecoder, scanstring

from citelens.source.json_nodes import pointer_tokens

_WS = re.compile(r"[ \t\n\r]*")
_scan_value = JSONDecoder().scan_once  # (text, offset) -> (value, end); C


def _value_end(text: str, pos: int) -> int:
    return _scan_value(text, pos)[1]


def locate_in_text(text: str, start: int, pointer: str, target: str = "value") -> tuple[int, int] | None:
    """The span for `pointer` inside the JSON value that starts at or after `start`."""
    ws = _WS.match
    try:
        pos = ws(text, start).end()
        node_end: int | None = None
        key_span: tuple[int, int] | None = None
        for token in pointer_tokens(pointer):
            ch = text[pos]
            if ch == "{":
                found = None
                p = ws(text, pos + 1).end()
                if text[p] != "}":
                    while True:
                        key, key_end = scanstring(text, p + 1)
                        q = ws(text, ws(text, key_end).end() + 1).end()  # past ':'
                        value_end = _value_end(text, q)
                        if key == token:
                            found = (p, key_end, q, value_end)
                        q = ws(text, value_end).end()
                        if text[q] != ",":
                            break
                        p = ws(text, q + 1).end()
                if found is None:
                    break
                key_span, pos, node_end = (found[0], found[1]), found[2], found[3]
            elif ch == "[":
                if not token.isdigit():
                    break
                wanted = int(token)
                p = ws(text, pos + 1).end()
                hit = None
                if text[p] != "]":
                    k = 0
                    while True:
                        value_end = _value_end(text, p)
                        if k == wanted:
                            hit = (p, value_end)
                            break
                        q = ws(text, value_end).end()
                        if text[q] != ",":
                            break
                        p = ws(text, q + 1).end()
                        k += 1
                if hit is None:
                    break
                pos, node_end = hit
                key_span = None
            else:
                break
        else:
            if target == "key" and key_span:
                return key_span
            if target != "missing":
                if node_end is None:
                    node_end = _value_end(text, pos)
                return pos, max(node_end, pos + 1)
        if key_span:
            return key_span
        return pos, pos + 1
    except (StopIteration, RecursionError, IndexError, ValueError):
        return None
