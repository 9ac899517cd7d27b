"""What a track spec asks of one metadata field, in words, read off the spec's own data.

`FIELD_REQUIREMENTS` is the one table: each row names a spec attribute, how that
attribute concerns a field (it lists the field, names it, maps it to allowed values, or
is about one fixed field) and the sentence to show. A new spec attribute about fields is
a new row, not a new branch; a new track is only new spec data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from citelens.check.track_spec import TrackSpec


class FieldRequirement(NamedTuple):
    attribute: str  # a TrackSpec attribute
    relation: str  # lists | names | maps | field:<name>
    text: str  # {value}: the attribute's value (for maps: the field's allowed values)
    only_if: str | None = None  # a boolean TrackSpec attribute that must be true


FIELD_REQUIREMENTS: tuple[FieldRequirement, ...] = (
    FieldRequirement("mandatory_metadata", "lists", "required: a report without it is an error"),
    FieldRequirement("recommended_metadata", "lists", "recommended: a warning when it is missing"),
    FieldRequirement("topic_id_field", "names", "the topic id: one report per topic in a run"),
    FieldRequirement(
        "narrative_field",
        "names",
        "an exact copy of the topic's text (checked against the topics file)",
        only_if="require_exact_narrative",
    ),
    FieldRequirement("string_ids", "lists", "a string, not a number"),
    FieldRequirement("metadata_values", "maps", "one of: {value}"),
    FieldRequirement("same_on_every_line", "lists", "the same in every report of the run"),
    FieldRequirement("run_id_max_len", "field:run_id", "at most {value} characters"),
    FieldRequirement("response_length_field", "names", "the answer's exact word count"),
)

#: a field no row concerns: (forbid_extra_metadata, sentence)
UNLISTED = {
    True: "not allowed: only the metadata fields the track lists may appear",
    False: "not checked by this track (any value is accepted)",
}


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in value)
    return str(value)


#: relation -> (does the attribute's value concern `field`?, the value to show)
_RELATIONS: dict[str, Callable[[Any, str], tuple[bool, Any]]] = {
    "lists": lambda value, field: (field in (value or ()), value),
    "names": lambda value, field: (value == field, value),
    "maps": lambda value, field: (field in (value or {}), (value or {}).get(field)),
}


def field_requirements(spec: TrackSpec, field: str) -> list[str]:
    """Sentences saying what `spec` requires of the metadata field `field` (at least one)."""
    out: list[str] = []
    for row in FIELD_REQUIREMENTS:
        if row.only_if is not None and not getattr(spec, row.only_if):
            continue
        value = getattr(spec, row.attribute)
        if row.relation.startswith("field:"):
            concerns, shown = row.relation.removeprefix("field:") == field and value is not None, value
        else:
            concerns, shown = _RELATIONS[row.relation](value, field)
        if concerns:
            out.append(row.text.format(value=_shown(shown)))
    return out or [UNLISTED[spec.forbid_extra_metadata]]
