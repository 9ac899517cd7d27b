"""JSON values that know where they are: nodes with code-point spans into the file.

Built only when a position is needed (a finding to place, a hover, a fix), so the hot
path of checking a clean file never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any


@dataclass(slots=True)
class Member:
    key: str
    key_start: int
    key_end: int
    value: Node


@dataclass(slots=True)
class Node:
    kind: str  # "object" | "array" | "string" | "number" | "true" | "false" | "null"
    start: int
    end: int
    value: Any = None  # scalars only
    members: list[Member] = field(default_factory=list)  # objects
    items: list[Node] = field(default_factory=list)  # arrays

    def member(self, key: str) -> Member | None:
        """The LAST member with this key (what a JSON decoder keeps on duplicates)."""
        found = None
        for m in self.members:
            if m.key == key:
                found = m
        return found

    def child(self, token: str) -> Node | None:
        if self.kind == "object":
            m = self.member(token)
            return m.value if m else None
        if self.kind == "array" and token.isdigit():
            i = int(token)
            return self.items[i] if i < len(self.items) else None
        return None

    def walk(self) -> Iterator[Node]:
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.items))
            stack.extend(m.value for m in reversed(node.members))


#: pointers kept, split or joined (a run's findings name the same few thousand paths:
#: `/responses/3/citations/0` in report after report)
POINTERS_KEPT = 1 << 14


@lru_cache(maxsize=POINTERS_KEPT)
def pointer_tokens(pointer: str) -> tuple[str, ...]:
    """The unescaped tokens of an RFC 6901 pointer (`/a~1b/0` -> `("a/b", "0")`)."""
    if not pointer:
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.lstrip("/").split("/"))


@lru_cache(maxsize=POINTERS_KEPT, typed=True)
def pointer_join(*tokens: object) -> str:
    """An RFC 6901 pointer from path parts, escaped (`"a/b", 0` -> `/a~1b/0`); the one
    place pointers are built, for findings and conversion loss notes alike."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def locate(root: Node, pointer: str, target: str = "value") -> tuple[int, int]:
    """The span a finding about `pointer` belongs on.

    value: the value token; key: the member's key token (the value for array items);
    missing: the pointer names an absent member, so the deepest existing ancestor's key,
    or that object's opening brace when it has no key (the root). Never empty.
    """
    node, key_span = root, None
    for token in pointer_tokens(pointer):
        if node.kind == "object":
            m = node.member(token)
            if m is None:
                break
            node, key_span = m.value, (m.key_start, m.key_end)
        else:
            nxt = node.child(token)
            if nxt is None:
                break
            node, key_span = nxt, None
    else:
        if target == "key" and key_span:
            return key_span
        if target != "missing":
            return node.start, max(node.end, node.start + 1)
    if key_span:
        return key_span
    return node.start, node.start + 1
