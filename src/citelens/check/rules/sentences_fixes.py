"""The fixers of the sentence rules (`sentences.py`): blank sentences and citations."""

from __future__ import annotations

from typing import Any

from citelens.check.finding import Finding
from citelens.check.fix_context import FixContext, citations_of, references_of, sentence_index
from citelens.check.view import SHAPE_NAMES, is_number
from citelens.source.edits import Edit, Fix, add_member, append_items, fix, remove_items, replace_value


def fix_blank_sentence(f: Finding, ctx: FixContext) -> Fix | None:
    i = sentence_index(f, ctx)
    sents = ctx.sentences_node
    if i is None or sents is None or len(ctx.view.sentences or []) < 2:
        return None
    return fix("Drop the blank sentence", remove_items(sents, [i]), unsafe=True)


def fix_reference_index(f: Finding, ctx: FixContext) -> Fix | None:
    i = sentence_index(f, ctx)
    if i is None:
        return None
    node, cits = citations_of(ctx, i)
    if node is None or node.kind != "array":
        return None
    n = len(references_of(ctx))
    bad = [j for j, c in enumerate(cits) if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < n]
    return fix("Drop the citation indices that name no reference", remove_items(node, bad))


def fix_citation_duplicate(f: Finding, ctx: FixContext) -> Fix | None:
    i = sentence_index(f, ctx)
    cits: Any  # the sentence's citations: a list when their node is an array
    node, cits = citations_of(ctx, i) if i is not None else (None, None)
    if node is None or node.kind != "array" or not isinstance(cits, list):
        return None
    seen: set[Any] = set()
    dupes: list[int] = []
    for j, c in enumerate(cits):
        if c in seen:
            dupes.append(j)
        else:
            seen.add(c)
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
    i = sentence_index(f, ctx)
    limit = f.data.get("limit")
    cits: Any  # the sentence's citations (None without a node)
    node, cits = citations_of(ctx, i) if i is not None else (None, None)
    if node is None or limit is None:
        return None
    if isinstance(cits, dict):
        order = ranked(cits)
        if order is None:
            return None
        keep = {d for d, _ in order[:limit]}
        new: Any = {d: s for d, s in cits.items() if d in keep}
        return fix(f"Keep the {limit} highest-scored citations", [replace_value(node, new)], unsafe=True)
    if not isinstance(cits, list):
        return None
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


def _convert_sentence(
    cits: Any, target: str, refs: list[str], shape: str | None
) -> tuple[Any, list[str]] | None:
    """Citations of one sentence in the `target` shape, plus doc ids to add to refs."""
    if cits is None:
        return None
    order: list[tuple[Any, float]] | None
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
    sentences = view.sentences or []
    families = [view.sentence_shape(i) for i in range(len(sentences))]
    main = next((s for s in families if s is not None), None)
    target = main if main in spec.sentence_type else spec.sentence_type[0]
    refs = [r for r in references_of(ctx) if isinstance(r, str)]
    table = list(refs)
    edits: list[Edit] = []
    for i, shape in enumerate(families):
        cits = sentences[i].get("citations") if isinstance(sentences[i], dict) else None
        if shape == target or shape is None:
            if view.kinds[i] == "invalid":
                return None
            if view.kinds[i] == "empty" and target == "ragtime":
                node, _ = citations_of(ctx, i)
                if node is None:
                    return None
                edits.append(replace_value(node, {}))
            continue
        converted = _convert_sentence(cits, target, table, shape)
        if converted is None:
            return None
        value, added = converted
        table.extend(added)
        node, _ = citations_of(ctx, i)
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
