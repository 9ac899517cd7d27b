"""Rules on the report's metadata: metadata (mandatory and forbidden keys),
metadata_recommended, run_id_length, metadata_value and id_type."""

from __future__ import annotations

from typing import Any

from citelens.check.finding import Finding, Target
from citelens.check.fix_context import FixContext, id_to_string
from citelens.check.rule import METADATA, ReportCheck, Rule
from citelens.check.view import TOPIC_ID_ALIASES, ReportView
from citelens.source.edits import Fix, fix, remove_members


def _value_of(view: ReportView, key: str) -> Any:
    """A metadata value as the reference model sees it (topic id aliases are synced)."""
    assert view.spec is not None  # run_rules calls this rule only under a spec
    if key in TOPIC_ID_ALIASES and view.spec.layout == "metadata":
        return view.topic_id
    return view.meta.get(key)


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def check_metadata(view: ReportView) -> None:
    spec, md = view.spec, view.meta
    assert spec is not None  # run_rules calls this rule only under a spec
    if spec.layout == "metadata" and not isinstance(view.value.get("metadata"), dict):
        return  # a schema finding already says the metadata object is missing
    where = "" if view.meta_ptr == "" else "metadata."
    for key in spec.mandatory_metadata:
        value = _value_of(view, key)
        if _empty(value):
            present = key in md
            view.add(
                "metadata",
                f"{where}{key} is required but is " + ("empty" if present else "missing"),
                *view.mtok(key),
                target=Target.VALUE if present else Target.MISSING,
                key=key,
            )
    for key in spec.recommended_metadata:
        if _empty(_value_of(view, key)):
            view.add(
                "metadata_recommended",
                f"{where}{key} is recommended by the track but is {'empty' if key in md else 'missing'}",
                *view.mtok(key),
                target=Target.VALUE if key in md else Target.MISSING,
                key=key,
            )
    if spec.run_id_max_len is not None:
        rid = md.get("run_id")
        rid = rid if isinstance(rid, str) else ""
        if len(rid) > spec.run_id_max_len:
            view.add(
                "run_id_length",
                f"run_id is {len(rid)} characters long; the track allows at "
                f"most {spec.run_id_max_len} (e.g. {rid[: spec.run_id_max_len]!r})",
                *view.mtok("run_id"),
                limit=spec.run_id_max_len,
            )
    if spec.forbid_extra_metadata:
        allowed = set(spec.mandatory_metadata) | set(spec.recommended_metadata)
        for key in md:
            if key not in allowed:
                view.add(
                    "metadata",
                    f"{where}{key} is not allowed: metadata keys must be exactly "
                    + ", ".join(spec.mandatory_metadata),
                    *view.mtok(key),
                    target=Target.KEY,
                    key=key,
                    extra=True,
                )
    for key in spec.string_ids:
        value = md.get(key)
        if value is not None and not isinstance(value, str):
            view.add(
                "id_type",
                f'{where}{key} must be a string; write "{value}" instead of {value}',
                *view.mtok(key),
                key=key,
            )
    for key, allowed_values in spec.metadata_values.items():
        if key in md and md[key] not in allowed_values:
            view.add(
                "metadata_value",
                f"{where}{key} is {md[key]!r}; it must be one of " + ", ".join(map(repr, allowed_values)),
                *view.mtok(key),
                key=key,
            )


def fix_metadata(f: Finding, ctx: FixContext) -> Fix | None:
    """Remove a key the track forbids (a missing key has no certain value)."""
    if f.data.get("extra"):
        md = ctx.at(ctx.view.meta_ptr) if ctx.view.meta_ptr else ctx.node
        if md is None:
            return None
        return fix(f"Remove metadata key {f.data['key']!r}", remove_members(md, [f.data["key"]]), unsafe=True)
    return None


CHECKS = (ReportCheck(check_metadata, METADATA),)
RULES = (
    Rule("metadata", check_metadata, fix_metadata),
    Rule("metadata_recommended", check_metadata),
    Rule("run_id_length", check_metadata),
    Rule("metadata_value", check_metadata),
    Rule("id_type", check_metadata, id_to_string),  # the spec's string_ids
)
