"""Rules found while reading the file, before any report is checked (their checks live
in `citelens.source`: decoding, the JSON scanner): json_syntax, encoding, duplicate_key."""

from __future__ import annotations

from citelens.check.finding import Finding
from citelens.check.fix_context import FixContext
from citelens.check.rule import Rule
from citelens.source.edits import Fix, element_spans, fix


def fix_duplicate_key(f: Finding, ctx: FixContext) -> Fix | None:
    """Remove the earlier of two equal keys: JSON readers already keep only the later one.

    The finding sits on the later key (placed in the text of `ctx.node`); its data holds
    where the earlier key starts, relative to it (`first_key_delta`)."""
    key_start = f.start
    first_key_start = key_start + f.data["first_key_delta"]
    for node in ctx.node.walk():
        if node.kind == "object" and any(m.key_start == key_start for m in node.members):
            first = [i for i, m in enumerate(node.members) if m.key_start == first_key_start]
            spans = [(m.key_start, m.value.end) for m in node.members]
            return fix(
                "Remove the earlier, ignored value",
                element_spans(spans, node.start, node.end - 1, set(first)),
            )
    return None


RULES = (
    Rule("json_syntax", None, scope="structure"),
    Rule("encoding", None, scope="structure"),
    Rule("duplicate_key", None, fix_duplicate_key, scope="structure"),
)
