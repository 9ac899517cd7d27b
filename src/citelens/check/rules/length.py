"""Rules on the answer's length: length (over the track's or the topic's limit) and
response_length (the declared word count of the 2024 format must be exact)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from citelens.check.finding import Finding, Target
from citelens.check.fix_context import FixContext
from citelens.check.rule import LENGTH, ReportCheck, Rule
from citelens.check.view import ReportView
from citelens.source.edits import Fix, fix, remove_items, replace_value


def length_count(texts: list[str], unit: str) -> int:
    """Join the sentence texts with single spaces, then count whitespace-split words or
    NFKC characters: what the official RAGTIME validator and autojudge-base do."""
    joined = " ".join(texts)
    if unit == "words":
        return len(joined.split())
    return len(joined) if joined.isascii() else len(unicodedata.normalize("NFKC", joined))


def word_count(texts: Iterable[str]) -> int:
    """Words of the answer as the 2024 checker counts them (the declared
    `response_length`): per sentence, stripped, NFKC, whitespace-split."""
    return sum(len(unicodedata.normalize("NFKC", t.strip()).split()) for t in texts)


def check_length(view: ReportView) -> None:
    spec = view.spec
    assert spec is not None  # run_rules calls this rule only under a spec
    limit = spec.length_limit
    if limit is None and spec.length_limit_request_field is not None and view.request is not None:
        limit = getattr(view.request, spec.length_limit_request_field, None)
    field_name = spec.response_length_field
    if limit is None and field_name is None:
        return
    texts = [s["text"] for s in view.sentences or [] if type(s) is dict and type(s.get("text")) is str]
    if limit is not None:
        count = length_count(texts, spec.length_unit)
        if count > limit:
            key = view.sentences_ptr[1:]
            view.add(
                "length",
                f"the answer is {count} {spec.length_unit} long; the limit is {limit} "
                f"({count - limit} {spec.length_unit} over)",
                key,
                target=Target.KEY,
                limit=limit,
                count=count,
            )
    if field_name is not None and field_name in view.meta:
        declared = view.meta[field_name]
        words = word_count(texts)
        if declared != words or isinstance(declared, bool):
            view.add(
                "response_length",
                f"{field_name} is {declared!r} but the answer has {words} words; set it to {words}",
                *view.mtok(field_name),
                count=words,
            )


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
    if limit is None or sents is None or spec is None:
        return None
    texts = [
        s.get("text") if isinstance(s, dict) and isinstance(s.get("text"), str) else ""
        for s in ctx.view.sentences or []
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


CHECKS = (ReportCheck(check_length, LENGTH),)
RULES = (
    Rule("length", check_length, fix_length),
    Rule("response_length", check_length, fix_response_length),
)
