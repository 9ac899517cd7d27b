"""What a fixer sees (`FixContext`), the helpers several rules' fixers share, and
`fix_for`, the one entry point that computes one finding's repair.

A fixer returns None when no repair is certain (a malformed doc id, a run id that is too
long): we never guess. `unsafe` marks repairs that change the report's content (dropping
sentences, citations or keys); `citelens check --fix` applies them only with
`--unsafe-fixes`. For reports citing by index, every change to `references` rewrites the
affected citation lists too, so indices keep pointing at the same documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from citelens.check.finding import Finding
from citelens.check.view import ReportView
from citelens.source.edits import Edit, Fix, fix, remove_items, replace_value
from citelens.source.json_nodes import Node, pointer_tokens


@dataclass
class FixContext:
    node: Node  # the report's node (absolute offsets)
    view: ReportView
    topics: Mapping[str, Any] | None = None

    def at(self, pointer: str) -> Node | None:
        node: Node | None = self.node
        for token in pointer_tokens(pointer):
            node = node.child(token) if node is not None else None
        return node

    @property
    def sentences_node(self) -> Node | None:
        return self.at(self.view.sentences_ptr)


# --- helpers shared by the fixers of several rules --------------------------------------


def references_of(ctx: FixContext) -> list[Any]:
    return ctx.view.references() or []


def cited_in_order(ctx: FixContext) -> list[str]:
    """Every cited doc id, first citation first."""
    seen: dict[str, None] = {}
    for i in range(len(ctx.view.sentences or [])):
        for doc, _tokens, _target in ctx.view.cited_ids(i):
            if isinstance(doc, str):
                seen.setdefault(doc)
    return list(seen)


def rewrite_references(ctx: FixContext, keep: list[int], title: str, unsafe: bool = False) -> Fix | None:
    """Keep the references at old positions `keep` (in that order); rewrite index
    citations so each still names the same document (or drop it if its doc is gone)."""
    refs = references_of(ctx)
    refs_node = ctx.at("/references")
    if refs_node is None or refs_node.kind != "array":
        return None
    edits: list[Edit] = remove_items(refs_node, set(range(len(refs))) - set(keep))
    if ctx.view.shape == "rag24" or any(
        ctx.view.sentence_shape(i) == "rag24" for i in range(len(ctx.view.sentences or []))
    ):
        new_index = {doc: n for n, doc in reversed(list(enumerate(refs[k] for k in keep)))}
        sents = ctx.sentences_node
        for i, s in enumerate(ctx.view.sentences or []):
            cits = s.get("citations") if isinstance(s, dict) else None
            if ctx.view.sentence_shape(i) != "rag24" or not isinstance(cits, list):
                continue
            new = []
            for c in cits:
                if (
                    isinstance(c, int)
                    and not isinstance(c, bool)
                    and 0 <= c < len(refs)
                    and refs[c] in new_index
                ):
                    new.append(new_index[refs[c]])
                else:
                    new.append(c)
            if new != cits and sents is not None:
                node = sents.items[i].child("citations")
                if node is not None:
                    edits.append(replace_value(node, new))
    return fix(title, edits, unsafe)


def sentence_index(f: Finding, ctx: FixContext) -> int | None:
    """The sentence a finding's pointer names (`/responses/3/...` -> 3)."""
    tokens = pointer_tokens(f.pointer)
    if len(tokens) >= 2 and "/" + tokens[0] == ctx.view.sentences_ptr and tokens[1].isdigit():
        return int(tokens[1])
    return None


def citations_of(ctx: FixContext, i: int) -> tuple[Node | None, Any]:
    """Sentence `i`'s citations: (their node, their value)."""
    sents, sentences = ctx.sentences_node, ctx.view.sentences or []
    if sents is None or i >= len(sents.items) or i >= len(sentences):
        return None, None
    node = sents.items[i].child("citations")
    s = sentences[i]
    return node, (s.get("citations") if isinstance(s, dict) else None)


def id_to_string(f: Finding, ctx: FixContext) -> Fix | None:
    """Write a numeric id as a string (`"topic_id": 12` -> `"12"`)."""
    node = ctx.at(f.pointer)
    if node is None or node.kind != "number" or isinstance(node.value, bool):
        return None
    v = node.value
    text = str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
    return fix("Write the id as a string", [replace_value(node, text)])
