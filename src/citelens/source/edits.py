"""Text edits: `Edit`/`Fix`, and edits on JSON nodes that leave every other byte as it was.

They sit at the bottom with the text they change, so that rules (their fixers), the fix
loop, conversion and the editor session all share one kind of edit. Each helper returns
`Edit`s (code-point spans into the file). Values are written the way `json.dumps` writes
them with non-ASCII kept, which is how run files are usually made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from citelens.source.json_nodes import Node
from citelens.source.json_text import json_dumps


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace file text[start:end] (code points) with new_text."""

    start: int
    end: int
    new_text: str


Applicability = Literal["safe", "unsafe"]


@dataclass(frozen=True, slots=True)
class Fix:
    """A repair for a finding. `unsafe` fixes change content (e.g. drop sentences)."""

    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = "safe"


def dump(value: Any) -> str:
    return json_dumps(value)


def replace_value(node: Node, value: Any) -> Edit:
    return Edit(node.start, node.end, dump(value))


def element_spans(spans: list[tuple[int, int]], open_at: int, close_at: int, drop: set[int]) -> list[Edit]:
    """Delete the chosen elements of a container together with their separators."""
    drop = {i for i in drop if 0 <= i < len(spans)}
    if len(drop) == len(spans):
        return [Edit(open_at + 1, close_at, "")] if spans else []
    edits, i = [], 0
    while i < len(spans):
        if i not in drop:
            i += 1
            continue
        run_start = i
        while i + 1 in drop:
            i += 1
        if run_start > 0:  # ", a, b" after the kept element before the run
            edits.append(Edit(spans[run_start - 1][1], spans[i][1], ""))
        else:  # "a, b, " before the first kept element
            edits.append(Edit(spans[run_start][0], spans[i + 1][0], ""))
        i += 1
    return edits


def remove_items(array: Node, indices: Iterable[int]) -> list[Edit]:
    spans = [(n.start, n.end) for n in array.items]
    return element_spans(spans, array.start, array.end - 1, set(indices))


def remove_members(obj: Node, keys: Iterable[str]) -> list[Edit]:
    keys = set(keys)
    drop = {i for i, m in enumerate(obj.members) if m.key in keys}
    spans = [(m.key_start, m.value.end) for m in obj.members]
    return element_spans(spans, obj.start, obj.end - 1, drop)


def append_items(array: Node, values: list[Any]) -> Edit:
    text = ", ".join(dump(v) for v in values)
    if array.items:
        at = array.items[-1].end
        return Edit(at, at, ", " + text)
    return Edit(array.start + 1, array.end - 1, text)


def add_member(obj: Node, key: str, value: Any) -> Edit:
    text = f"{dump(key)}: {dump(value)}"
    if obj.members:
        at = obj.members[-1].value.end
        return Edit(at, at, ", " + text)
    return Edit(obj.start + 1, obj.end - 1, text)


def fix(title: str, edits: list[Edit], unsafe: bool = False) -> Fix | None:
    if not edits:
        return None
    return Fix(title, tuple(sorted(edits, key=lambda e: (e.start, e.end))), "unsafe" if unsafe else "safe")


def shift(f: Fix, by: int) -> Fix:
    return Fix(f.title, tuple(Edit(e.start + by, e.end + by, e.new_text) for e in f.edits), f.applicability)


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (callers pick a consistent set)."""
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        out.append(text[pos : e.start])
        out.append(e.new_text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def compatible(chosen: list[Edit], candidate: Iterable[Edit]) -> bool:
    """No overlap with already chosen edits; touching edits conflict too, because an
    insertion at the edge of a deletion could land on either side of it."""
    return all(not (c.start <= e.end and e.start <= c.end) for c in candidate for e in chosen)
