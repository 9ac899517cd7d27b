"""Place JSON pointers on the text without building a node tree.

A `Locator` walks only the containers a pointer passes through: it reads member keys
with the json module's C string scanner and steps over values with its C value scanner,
remembering each container it has read, so placing all the findings of a report costs
about one `json.loads` of the parts they are in, instead of a pure-Python positioned
parse of the whole report (and a second finding in the same list costs a dict lookup).
The spans are the ones `json_nodes.locate` gives on the report's node tree (same rules
for value, key and missing targets; the last of duplicate keys wins). `span` returns
None when it cannot walk the text (e.g. nesting too deep for the C scanner); the caller
then builds the node tree.
"""

from __future__ import annotations

from typing import cast

from citelens.source.json_nodes import pointer_tokens
from citelens.source.json_speedups import scan_value as _scan_value  # (text, offset) -> (value, end); C
from citelens.source.json_speedups import scanstring, skip_whitespace

# an object's members: key -> (key start, key end, value start, value end), last one wins
Members = dict[str, tuple[int, int, int, int]]
Items = list[tuple[int, int]]  # an array's items: (value start, value end)


class Locator:
    """Spans of pointers inside the JSON value that starts at or after `start`.

    `unique_keys=True` promises that no object in the value repeats a key (the checker
    knows this of every report its fast path decoded: a duplicate sends the report to
    the positioned parser). An object is then read only up to the member asked for, so
    a finding in `metadata` does not pay for decoding a long `answer` after it."""

    __slots__ = ("_read", "_resume", "root", "text", "unique")

    def __init__(self, text: str, start: int, *, unique_keys: bool = False):
        self.text = text
        self.root = skip_whitespace(text, start).end()
        self.unique = unique_keys
        self._read: dict[int, Members | Items] = {}  # container start -> its children so far
        self._resume: dict[int, int] = {}  # object start -> offset of its next unread member, -1 at the end

    def _member(self, pos: int, token: str) -> tuple[int, int, int, int] | None:
        text, ws = self.text, skip_whitespace
        members = cast("Members | None", self._read.get(pos))  # an object's start holds its members
        if members is None:
            members = self._read[pos] = {}
            p = ws(text, pos + 1).end()
            self._resume[pos] = -1 if text[p] == "}" else p
        elif self.unique and token in members:
            return members[token]
        p = self._resume[pos]
        while p >= 0:
            key, key_end = scanstring(text, p + 1)
            q = ws(text, ws(text, key_end).end() + 1).end()  # past the ':'
            value_end = _scan_value(text, q)[1]
            members[key] = (p, key_end, q, value_end)
            q = ws(text, value_end).end()
            p = ws(text, q + 1).end() if text[q] == "," else -1
            if self.unique and key == token:
                self._resume[pos] = p
                return members[key]
        self._resume[pos] = -1
        return members.get(token)

    def _array(self, pos: int) -> Items:
        items = cast("Items | None", self._read.get(pos))  # an array's start holds its items
        if items is None:
            text, ws = self.text, skip_whitespace
            items = []
            p = ws(text, pos + 1).end()
            if text[p] != "]":
                while True:
                    value_end = _scan_value(text, p)[1]
                    items.append((p, value_end))
                    q = ws(text, value_end).end()
                    if text[q] != ",":
                        break
                    p = ws(text, q + 1).end()
            self._read[pos] = items
        return items

    def span(self, pointer: str, target: str = "value") -> tuple[int, int] | None:
        text = self.text
        try:
            pos = self.root
            node_end: int | None = None
            key_span: tuple[int, int] | None = None
            for token in pointer_tokens(pointer):
                ch = text[pos]
                if ch == "{":
                    found = self._member(pos, token)
                    if found is None:
                        break
                    key_span, pos, node_end = (found[0], found[1]), found[2], found[3]
                elif ch == "[":
                    if not token.isdigit():
                        break
                    items = self._array(pos)
                    i = int(token)
                    if i >= len(items):
                        break
                    pos, node_end = items[i]
                    key_span = None
                else:
                    break
            else:
                if target == "key" and key_span:
                    return key_span
                if target != "missing":
                    if node_end is None:
                        node_end = _scan_value(text, pos)[1]
                    return pos, max(node_end, pos + 1)
            if key_span:
                return key_span
            return pos, pos + 1
        except (StopIteration, RecursionError, IndexError, ValueError):
            return None


def locate_in_text(text: str, start: int, pointer: str, target: str = "value") -> tuple[int, int] | None:
    """One pointer's span (see `Locator`)."""
    return Locator(text, start).span(pointer, target)
