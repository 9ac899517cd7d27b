"""Rules on the `references` list: references_present, references_missing,
references_duplicate, references_undeclared, references_uncited, references_max, and
docid_pattern for referenced ids. Which apply is the spec's `references_kind`."""

from __future__ import annotations

from typing import Any

from citelens.check.finding import Finding, Target
from citelens.check.fix_context import FixContext, cited_in_order, references_of, rewrite_references
from citelens.check.rule import REFERENCES, ReportCheck, Rule
from citelens.check.rules.sentences import _collection, _example
from citelens.check.view import ReportView
from citelens.source.edits import Fix, add_member, append_items, fix, remove_members


def _first_citing_sentence(view: ReportView) -> dict[str, int]:
    refs = view.references() or []
    n = len(refs)
    first: dict[str, int] = {}
    for i, s in enumerate(view.sentences or []):
        cits = s.get("citations") if type(s) is dict else None
        if not cits:
            continue
        shape = view.sentence_shape(i)
        if shape == "rag24" and type(cits) is list:
            ids = [refs[c] for c in cits if type(c) is int and 0 <= c < n and type(refs[c]) is str]
        elif shape in ("neuclir", "ragtime") and type(cits) in (list, dict):
            ids = [d for d in cits if type(d) is str]
        else:
            continue
        for d in ids:
            if d not in first:
                first[d] = i
    return first


def check_references(view: ReportView) -> None:
    spec = view.spec
    assert spec is not None  # run_rules calls this rule only under a spec
    value = view.value
    if spec.require_references_key and "references" not in value:
        view.add(
            "references_missing",
            "the report has no 'references' key; this track requires "
            "one (a list of the cited doc ids, possibly empty)",
            "references",
            target=Target.MISSING,
        )
    kind = spec.references_kind
    if kind == "ignore":
        return
    raw = value.get("references")
    refs = raw if isinstance(raw, list) else None
    cited = _first_citing_sentence(view)  # doc id -> sentence that first cites it
    if kind == "none":
        if refs:
            view.add(
                "references_present",
                "this track uses no references list, but the report has one; remove the 'references' key",
                "references",
                target=Target.KEY,
            )
        return
    if spec.references_optional and not refs:
        return
    if refs is None:
        # a non-list value is a schema finding already; an absent key may be reported above
        if raw is None and ("references" in value or not spec.require_references_key):
            view.add(
                "references_missing",
                "this track requires a references list, but the report "
                'has none; add "references": [the doc ids you cite]',
                "references",
                target=Target.MISSING,
            )
        return
    ids = [r for r in refs if isinstance(r, str)]
    seen: dict[str, int] = {}
    for j, r in enumerate(refs):
        if not isinstance(r, str):
            continue
        if r in seen:
            view.add(
                "references_duplicate",
                f"references[{j}] repeats {r!r} (first at references[{seen[r]}]); list each document once",
                "references",
                j,
                first=seen[r],
            )
        else:
            seen[r] = j
        if not spec.docid_ok(r):
            view.add(
                "docid_pattern",
                f"reference doc id {r!r} is not a valid document id"
                f"{_collection(spec)}: it must match {spec.docid_pattern} as a whole"
                f"{_example(spec)}",
                "references",
                j,
            )
    listed = set(ids)
    undeclared = [d for d in cited if d not in listed]
    uncited = [j for j, r in enumerate(refs) if isinstance(r, str) and r not in cited and seen.get(r) == j]
    for doc in undeclared:
        tokens, target = next((t, g) for d, t, g in view.cited_ids(cited[doc]) if d == doc)
        view.add(
            "references_undeclared",
            f"{doc!r} is cited but not listed in references; add it to the references list",
            *tokens,
            target=target,
            doc=doc,
        )
    exact = kind == "cited_only"
    for j in uncited:
        view.add(
            "references_uncited",
            f"references[{j}] {refs[j]!r} is never cited"
            + (
                "; references must list exactly the cited documents"
                if exact
                else "; permitted, but citing or dropping it is preferred"
            ),
            "references",
            j,
        )
    if kind == "retrieval_list" and spec.references_max is not None and len(refs) > spec.references_max:
        view.add(
            "references_max",
            f"the references list has {len(refs)} entries; the track allows at most {spec.references_max}",
            "references",
            target=Target.KEY,
            limit=spec.references_max,
        )


# --- fixers ------------------------------------------------------------------------------


def fix_references_duplicate(f: Finding, ctx: FixContext) -> Fix | None:
    refs = references_of(ctx)
    first: dict[Any, int] = {}
    keep = [j for j, r in enumerate(refs) if not isinstance(r, str) or first.setdefault(r, j) == j]
    return rewrite_references(ctx, keep, "Drop the repeated references")


def fix_references_uncited(f: Finding, ctx: FixContext) -> Fix | None:
    refs = references_of(ctx)
    cited = set(cited_in_order(ctx))
    keep = [j for j, r in enumerate(refs) if r in cited]
    exact = ctx.view.spec is not None and ctx.view.spec.references_kind == "cited_only"
    return rewrite_references(ctx, keep, "Drop the references no sentence cites", unsafe=not exact)


def fix_references_undeclared(f: Finding, ctx: FixContext) -> Fix | None:
    refs_node = ctx.at("/references")
    if refs_node is None or refs_node.kind != "array":
        return None
    listed = set(r for r in references_of(ctx) if isinstance(r, str))
    missing = [d for d in cited_in_order(ctx) if d not in listed]
    return fix("Add the cited documents to references", [append_items(refs_node, missing)] if missing else [])


def fix_references_missing(f: Finding, ctx: FixContext) -> Fix | None:
    if "references" in ctx.view.value or ctx.view.shape == "rag24":
        return None  # index citations without references cannot be resolved
    return fix(
        "Add references listing the cited documents",
        [add_member(ctx.node, "references", cited_in_order(ctx))],
    )


def fix_references_present(f: Finding, ctx: FixContext) -> Fix | None:
    if ctx.view.shape == "rag24":
        return None
    return fix("Remove the references list", remove_members(ctx.node, ["references"]), unsafe=True)


CHECKS = (ReportCheck(check_references, REFERENCES),)
RULES = (
    Rule("references_present", check_references, fix_references_present),
    Rule("references_missing", check_references, fix_references_missing),
    Rule("references_duplicate", check_references, fix_references_duplicate, default_severity="warning"),
    Rule("references_undeclared", check_references, fix_references_undeclared),
    Rule("references_uncited", check_references, fix_references_uncited),
    Rule("references_max", check_references),
)
