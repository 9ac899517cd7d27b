"""One fixer per finding code: the repair a user would make by hand, as edits.

A fixer returns None when no repair is certain (a malformed doc id, a run id that is too
long): we never guess. `unsafe` marks repairs that change the report's content (dropping
sentences, citations or keys); `citelens check --fix` applies them only with
`--unsafe-fixes`. For reports citing by index, every change to `references` rewrites the
affected citation lists too, so indices keep pointing at the same documents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from citelens.check.finding import Edit, Finding, Fix
from citelens.check.rules.length import length_count
from citelens.check.rules.schema import METADATA_FIELDS
from citelens.check.view import SHAPE_NAMES, ReportView, is_number
from citelens.source.edits import (
    add_member,
    append_items,
    element_spans,
    fix,
    remove_items,
    remove_members,
    replace_value,
)
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


# --- references, with index remapping -------------------------------------------------


def _refs(ctx: FixContext) -> list:
    return ctx.view.references() or []


def _cited_in_order(ctx: FixContext) -> list[str]:
    seen: dict[str, None] = {}
    for i in range(len(ctx.view.sentences or [])):
        for doc, _tokens, _target in ctx.view.cited_ids(i):
            if isinstance(doc, str):
                seen.setdefault(doc)
    return list(seen)


def _rewrite_references(ctx: FixContext, keep: list[int], title: str, unsafe: bool = False) -> Fix | None:
    """Keep the references at old positions `keep` (in that order); rewrite index
    citations so each still names the same document (or drop it if its doc is gone)."""
    refs = _refs(ctx)
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


def fix_references_duplicate(f: Finding, ctx: FixContext) -> Fix | None:
    refs = _refs(ctx)
    first: dict[Any, int] = {}
    keep = [j for j, r in enumerate(refs) if not isinstance(r, str) or first.setdefault(r, j) == j]
    return _rewrite_references(ctx, keep, "Drop the repeated references")


def fix_references_uncited(f: Finding, ctx: FixContext) -> Fix | None:
    refs = _refs(ctx)
    cited = set(_cited_in_order(ctx))
    keep = [j for j, r in enumerate(refs) if r in cited]
    exact = ctx.view.spec is not None and ctx.view.spec.references_kind == "cited_only"
    return _rewrite_references(ctx, keep, "Drop the references no sentence cites", unsafe=not exact)


def fix_references_undeclared(f: Finding, ctx: FixContext) -> Fix | None:
    refs_node = ctx.at("/references")
    if refs_node is None or refs_node.kind != "array":
        return None
    listed = set(r for r in _refs(ctx) if isinstance(r, str))
    missing = [d for d in _cited_in_order(ctx) if d not in listed]
    return fix("Add the cited documents to references", [append_items(refs_node, missing)] if missing else [])


def fix_references_missing(f: Finding, ctx: FixContext) -> Fix | None:
    if "references" in ctx.view.value or ctx.view.shape == "rag24":
        return None  # index citations without references cannot be resolved
    return fix(
        "Add references listing the cited documents",
        [add_member(ctx.node, "references", _cited_in_order(ctx))],
    )


def fix_references_present(f: Finding, ctx: FixContext) -> Fix | None:
    if ctx.view.shape == "rag24":
        return None
    return fix("Remove the references list", remove_members(ctx.node, ["references"]), unsafe=True)


# --- citations -------------------------------------------------------------------------


def _sentence_index(f: Finding, ctx: FixContext) -> int | None:
    tokens = pointer_tokens(f.pointer)
    if len(tokens) >= 2 and "/" + tokens[0] == ctx.view.sentences_ptr and tokens[1].isdigit():
        return int(tokens[1])
    return None


def _citations(ctx: FixContext, i: int) -> tuple[Node | None, Any]:
    sents = ctx.sentences_node
    if sents is None or i >= len(sents.items):
        return None, None
    node = sents.items[i].child("citations")
    s = ctx.view.sentences[i]
    return node, (s.get("citations") if isinstance(s, dict) else None)


def fix_reference_index(f: Finding, ctx: FixContext) -> Fix | None:
    i = _sentence_index(f, ctx)
    if i is None:
        return None
    node, cits = _citations(ctx, i)
    if node is None or node.kind != "array":
        return None
    n = len(_refs(ctx))
    bad = [j for j, c in enumerate(cits) if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < n]
    return fix("Drop the citation indices that name no reference", remove_items(node, bad))


def fix_citation_duplicate(f: Finding, ctx: FixContext) -> Fix | None:
    i = _sentence_index(f, ctx)
    node, cits = _citations(ctx, i) if i is not None else (None, None)
    if node is None or node.kind != "array":
        return None
    seen: set = set()
    dupes = [j for j, c in enumerate(cits) if (c in seen) or seen.add(c)]
    return fix("Cite each reference once", remove_items(node, dupes))


def ranked(cits: Any) -> list[tuple[Any, float]] | None:
    """Citations as (doc or index, confidence), best first; order-only shapes get 1/rank."""
    if isinstance(cits, dict):
        if not all(is_number(v) for v in cits.values()):
            return None
        return sorted(cits.items(), key=lambda kv: -kv[1])
    if isinstance(cits, list):
        unique = list(dict.fromkeys(cits))
        return [(c, 1.0 / r) for r, c in enumerate(unique, start=1)]
    return None


def fix_citation_count(f: Finding, ctx: FixContext) -> Fix | None:
    i = _sentence_index(f, ctx)
    limit = f.data.get("limit")
    node, cits = _citations(ctx, i) if i is not None else (None, None)
    if node is None or limit is None:
        return None
    if isinstance(cits, dict):
        order = ranked(cits)
        if order is None:
            return None
        keep = {d for d, _ in order[:limit]}
        new: Any = {d: s for d, s in cits.items() if d in keep}
        return fix(f"Keep the {limit} highest-scored citations", [replace_value(node, new)], unsafe=True)
    return fix(f"Keep the first {limit} citations", remove_items(node, range(limit, len(cits))), unsafe=True)


def fix_citation_score(f: Finding, ctx: FixContext) -> Fix | None:
    node = ctx.at(f.pointer)
    if node is None or node.kind != "string":
        return None
    try:
        number = float(node.value)
    except ValueError:
        return None
    if number != number or number in (float("inf"), float("-inf")):
        return None
    return fix(
        "Write the score as a number",
        [replace_value(node, int(number) if number.is_integer() and "." not in node.value else number)],
    )


def _convert_sentence(cits: Any, target: str, refs: list, shape: str | None) -> tuple[Any, list[str]] | None:
    """Citations of one sentence in the `target` shape, plus doc ids to add to refs."""
    if cits is None:
        return None
    if shape == "rag24":
        docs = [refs[c] for c in cits if isinstance(c, int) and 0 <= c < len(refs)]
        if len(docs) != len(cits):
            return None
        order = [(d, 1.0 / r) for r, d in enumerate(dict.fromkeys(docs), start=1)]
    elif shape in ("neuclir", "ragtime"):
        order = ranked(cits)
        if order is None:
            return None
    else:
        return None
    if target == "ragtime":
        return {d: s for d, s in order}, []
    if target == "neuclir":
        return [d for d, _ in order], []
    if target == "rag24":
        added = [d for d, _ in order if d not in refs]
        table = refs + added
        return [table.index(d) for d, _ in order], added
    return None


def fix_citation_format(f: Finding, ctx: FixContext) -> Fix | None:
    """Rewrite every sentence whose shape the report cannot keep, in one edit set."""
    view, spec = ctx.view, ctx.view.spec
    if spec is None:
        return None
    families = [view.sentence_shape(i) for i in range(len(view.sentences or []))]
    main = next((s for s in families if s is not None), None)
    target = main if main in spec.sentence_type else spec.sentence_type[0]
    refs = [r for r in _refs(ctx) if isinstance(r, str)]
    table = list(refs)
    edits: list[Edit] = []
    for i, shape in enumerate(families):
        cits = view.sentences[i].get("citations") if isinstance(view.sentences[i], dict) else None
        if shape == target or shape is None:
            if view.kinds[i] == "invalid":
                return None
            if view.kinds[i] == "empty" and target == "ragtime":
                node, _ = _citations(ctx, i)
                edits.append(replace_value(node, {}))
            continue
        converted = _convert_sentence(cits, target, table, shape)
        if converted is None:
            return None
        value, added = converted
        table.extend(added)
        node, _ = _citations(ctx, i)
        if node is None:
            return None
        edits.append(replace_value(node, value))
    if len(table) > len(refs):
        refs_node = ctx.at("/references")
        if refs_node is None:
            if "references" in view.value:
                return None
            edits.append(add_member(ctx.node, "references", table))
        elif refs_node.kind == "array":
            edits.append(append_items(refs_node, table[len(refs) :]))
        else:
            return None
    return fix(f"Convert the citations to {SHAPE_NAMES[target]}", edits)


# --- metadata and text -----------------------------------------------------------------


def _to_string(f: Finding, ctx: FixContext) -> Fix | None:
    node = ctx.at(f.pointer)
    if node is None or node.kind != "number" or isinstance(node.value, bool):
        return None
    v = node.value
    text = str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
    return fix("Write the id as a string", [replace_value(node, text)])


def fix_schema(f: Finding, ctx: FixContext) -> Fix | None:
    tokens = pointer_tokens(f.pointer)
    if len(tokens) == 2 and tokens[0] == "metadata" and METADATA_FIELDS.get(tokens[1], ("",))[0] == "str":
        return _to_string(f, ctx)
    return None


def fix_metadata(f: Finding, ctx: FixContext) -> Fix | None:
    if f.data.get("extra"):
        md = ctx.at(ctx.view.meta_ptr) if ctx.view.meta_ptr else ctx.node
        return fix(f"Remove metadata key {f.data['key']!r}", remove_members(md, [f.data["key"]]), unsafe=True)
    return None


def fix_narrative(f: Finding, ctx: FixContext) -> Fix | None:
    expected = f.data.get("expected")
    if expected is None:
        return None
    node = ctx.at(f.pointer)
    if node is not None:
        return fix("Copy the exact topic text", [replace_value(node, expected)])
    md = ctx.at(ctx.view.meta_ptr) if ctx.view.meta_ptr else ctx.node
    if md is None or md.kind != "object":
        return None
    return fix("Copy the exact topic text", [add_member(md, ctx.view.spec.narrative_field, expected)])


def fix_response_length(f: Finding, ctx: FixContext) -> Fix | None:
    node = ctx.at(f.pointer)
    return (
        fix("Set the declared length to the counted words", [replace_value(node, f.data["count"])])
        if node is not None
        else None
    )


def fix_length(f: Finding, ctx: FixContext) -> Fix | None:
    """Drop trailing sentences until the answer fits, as the official fixers do."""
    limit, spec = f.data.get("limit"), ctx.view.spec
    sents = ctx.sentences_node
    if limit is None or sents is None:
        return None
    texts = [
        s.get("text") if isinstance(s, dict) and isinstance(s.get("text"), str) else ""
        for s in ctx.view.sentences
    ]
    keep = len(texts)
    while keep > 1 and length_count([t for t in texts[:keep] if t], spec.length_unit) > limit:
        keep -= 1
    if length_count([t for t in texts[:keep] if t], spec.length_unit) > limit:
        return None
    return fix(
        f"Drop the last {len(texts) - keep} sentence(s) to fit the limit of {limit} {spec.length_unit}",
        remove_items(sents, range(keep, len(texts))),
        unsafe=True,
    )


def fix_blank_sentence(f: Finding, ctx: FixContext) -> Fix | None:
    i = _sentence_index(f, ctx)
    sents = ctx.sentences_node
    if i is None or sents is None or len(ctx.view.sentences) < 2:
        return None
    return fix("Drop the blank sentence", remove_items(sents, [i]), unsafe=True)


FIXERS: dict[str, Callable[[Finding, FixContext], Fix | None]] = {
    "references_duplicate": fix_references_duplicate,
    "references_uncited": fix_references_uncited,
    "references_undeclared": fix_references_undeclared,
    "references_missing": fix_references_missing,
    "references_present": fix_references_present,
    "reference_index": fix_reference_index,
    "citation_duplicate": fix_citation_duplicate,
    "citation_count": fix_citation_count,
    "citation_score": fix_citation_score,
    "citation_format": fix_citation_format,
    "id_type": _to_string,
    "schema": fix_schema,
    "metadata": fix_metadata,
    "narrative": fix_narrative,
    "response_length": fix_response_length,
    "length": fix_length,
    "blank_sentence": fix_blank_sentence,
}


def fix_duplicate_key(root: Node, key_start: int, first_key_start: int) -> Fix | None:
    """Remove the earlier of two equal keys: JSON readers already keep only the later one."""
    for node in root.walk():
        if node.kind == "object" and any(m.key_start == key_start for m in node.members):
            first = [i for i, m in enumerate(node.members) if m.key_start == first_key_start]
            spans = [(m.key_start, m.value.end) for m in node.members]
            return fix(
                "Remove the earlier, ignored value",
                element_spans(spans, node.start, node.end - 1, set(first)),
            )
    return None


def fix_for(finding: Finding, ctx: FixContext) -> Fix | None:
    fixer = FIXERS.get(finding.code)
    if fixer is None:
        return None
    try:
        return fixer(finding, ctx)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None  # an odd shape we did not foresee: offer nothing rather than a wrong edit
