"""A spec table (from a spec file, or a plain mapping) validated into a `TrackSpec`'s fields.

The vocabulary of the fields and every check of their values live here, beside the
model, so that a spec file (`citelens.specs`), `TrackSpec.from_dict` and the built-in
specs are validated by one piece of code. The model's own module builds the spec from the
fields (`track_spec.spec_from_table`), so that this module need not import it. Messages name the spec, the field and what is
allowed; a `SpecError` carries the file and line when there is a file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from citelens.source.located_error import LocatedError

SENTENCE_TYPES = ("rag24", "ragtime", "neuclir")
REFERENCES_KINDS = ("cited_only", "retrieval_list", "none", "ignore")
LENGTH_UNITS = ("words", "chars")
LAYOUTS = ("metadata", "flat")
TASKS = ("generation", "repgen")
SENTENCES_KEYS = ("answer", "responses")
#: the names autojudge-base's metadata model keeps the topic id under (kept in sync)
TOPIC_ID_FIELDS = ("narrative_id", "topic_id", "request_id")


class SpecError(LocatedError):
    """A spec file (or spec argument) problem: `PATH:LINE: reason`."""


class LineOf(Protocol):
    """Where a spec's table (key None) or one of its keys starts, when known."""

    def of(self, spec_id: str, key: str | None) -> int | None: ...


class _NoLines:
    def of(self, spec_id: str, key: str | None) -> int | None:
        return None


_NO_LINES = _NoLines()


def expect(cond: bool, msg: str, path: str | None, line: int | None) -> None:
    """Raise a `SpecError` with `msg` unless `cond` holds."""
    if not cond:
        raise SpecError(msg, path, line)


def _list_of_str(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _one_of(
    spec_id: str, key: str, value: object, allowed: tuple[str, ...], path: str | None, lines: LineOf
) -> None:
    expect(
        value in allowed,
        f"spec {spec_id!r}: {key} = {value!r} is not one of {list(allowed)}",
        path,
        lines.of(spec_id, key),
    )


def validated_fields(
    spec_id: str,
    raw: Mapping[str, Any],
    known: Mapping[str, Any],
    required: tuple[str, ...],
    path: str | None = None,
    lines: LineOf | None = None,
) -> dict[str, Any]:
    """Validate one spec table (`extends` already applied) against the model's `known`
    and `required` fields: the keyword arguments of the spec. `lines` gives the line of a
    key (or of the table, for None) for the messages."""
    lines = lines or _NO_LINES
    d = dict(raw)
    d.setdefault("track", spec_id)
    for key in d:
        expect(
            key in known,
            f"spec {spec_id!r}: unknown field {key!r}; known fields: {', '.join(known)}",
            path,
            lines.of(spec_id, key),
        )
    missing = [k for k in required if k not in d]
    expect(
        not missing, f"spec {spec_id!r}: missing required field(s) {missing}", path, lines.of(spec_id, None)
    )
    if isinstance(d["sentence_type"], str):
        d["sentence_type"] = [d["sentence_type"]]
    for key in (
        "sentence_type",
        "mandatory_metadata",
        "recommended_metadata",
        "smells",
        "collection_ids",
        "string_ids",
        "same_on_every_line",
    ):
        if d.get(key) is not None:
            expect(
                _list_of_str(d[key]),
                f"spec {spec_id!r}: {key} must be a list of strings",
                path,
                lines.of(spec_id, key),
            )
    expect(
        bool(d["sentence_type"]),
        f"spec {spec_id!r}: sentence_type must not be empty",
        path,
        lines.of(spec_id, "sentence_type"),
    )
    for st in d["sentence_type"]:
        _one_of(spec_id, "sentence_type", st, SENTENCE_TYPES, path, lines)
    if d.get("smells") is not None:
        from citelens.check.registry import SMELL_CODES  # every rule: loaded with the specs only

        for code in d["smells"]:
            expect(
                code in SMELL_CODES,
                f"spec {spec_id!r}: unknown smell category {code!r}; "
                f"known categories: {', '.join(SMELL_CODES)}",
                path,
                lines.of(spec_id, "smells"),
            )
    else:
        d.pop("smells", None)
    _one_of(spec_id, "task", d["task"], TASKS, path, lines)
    for key, allowed in (
        ("sentences_key", SENTENCES_KEYS),
        ("topic_id_field", TOPIC_ID_FIELDS),
        ("references_kind", REFERENCES_KINDS),
        ("length_unit", LENGTH_UNITS),
        ("layout", LAYOUTS),
    ):
        if key in d:
            _one_of(spec_id, key, d[key], allowed, path, lines)
    for key in ("run_id_max_len", "references_max", "max_citations_per_sentence", "length_limit"):
        v = d.get(key)
        expect(
            v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0),
            f"spec {spec_id!r}: {key} must be a non-negative integer or null (got {v!r})",
            path,
            lines.of(spec_id, key),
        )
    for key in (
        "forbid_extra_metadata",
        "require_exact_narrative",
        "references_optional",
        "require_references_key",
        "require_citations_key",
        "flag_duplicate_citations",
    ):
        if key in d:
            expect(
                isinstance(d[key], bool),
                f"spec {spec_id!r}: {key} must be true or false",
                path,
                lines.of(spec_id, key),
            )
    if d.get("docid_pattern") is not None:
        try:
            re.compile(d["docid_pattern"])
        except (re.error, TypeError) as exc:
            raise SpecError(
                f"spec {spec_id!r}: docid_pattern is not a valid regex: {exc}",
                path,
                lines.of(spec_id, "docid_pattern"),
            ) from None
    mv = d.get("metadata_values") or {}
    expect(
        isinstance(mv, dict) and all(isinstance(v, list) for v in mv.values()),
        f"spec {spec_id!r}: metadata_values must map a key to a list of allowed values",
        path,
        lines.of(spec_id, "metadata_values"),
    )
    d["metadata_values"] = {k: tuple(v) for k, v in mv.items()}
    for key, value in list(d.items()):
        if isinstance(value, list):
            d[key] = tuple(value)
    return d
