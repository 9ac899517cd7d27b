"""A JSON Schema (draft 2020-12) of one report of a track spec, made from the spec data.

For tools and editors that validate JSON by schema (VS Code's `json.schemas`, `check-jsonschema`,
a submission portal). The schema says what a schema can: the required fields and their
types (the rule engine's field tables, `check/rules/schema.py`), the spec's mandatory
metadata, allowed values, string ids, the run id's length limit, the citation shapes the
track accepts, the doc-id pattern, the length of `references` and the number of citations
per sentence. A limit the spec reports as a warning (a *smell*) is left out, so a report
the schema rejects has an error under `citelens check`. What needs more than one value to
judge (an index past the end of `references`, word counts, topics, cross-report rules) is
`citelens check`'s alone.
"""

from __future__ import annotations

from typing import Any

from citelens.check.rules.schema import (
    FLAT_FIELDS,
    METADATA_FIELDS,
    NOT_NULL_METADATA,
    REPORT_FIELDS,
    FieldTable,
)
from citelens.check.track_spec import TrackSpec
from citelens.check.view import TOPIC_ID_ALIASES

DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: the engine's type names (check/rules/schema.py TYPES) -> JSON Schema
_TYPES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "object": {"type": "object"},
    "list": {"type": "array"},
    "str_list": {"type": "array", "items": {"type": "string"}},
    "str_or_int": {"type": ["string", "integer"]},
    "float": {"type": "number"},
    "task": {"enum": ["multilingual", "english", "rag"]},
    "documents": {"type": "object"},
    "ranking": {"type": "array"},
}
#: a value the rules treat as missing when blank (metadata: "required but is empty")
_NOT_BLANK = {"pattern": r"\S"}


def _errors(spec: TrackSpec, code: str) -> bool:
    """The spec reports `code` as an error (not a smell): the schema may enforce it."""
    return spec.severity_of(code) == "error"


def _whole(pattern: str) -> str:
    """A doc-id regex matched against the whole id, as the rules match it."""
    return f"^(?:{pattern})$"


def _field(table: FieldTable, key: str, type_name: str, required: bool) -> dict[str, Any]:
    schema = dict(_TYPES[type_name])
    nullable = not required and not (table is METADATA_FIELDS and key in NOT_NULL_METADATA)
    if table is REPORT_FIELDS and key == "is_ragtime":
        nullable = False
    if nullable:
        return {"anyOf": [schema, {"type": "null"}]}
    return schema


def _doc_id(spec: TrackSpec) -> dict[str, Any]:
    if spec.docid_pattern and _errors(spec, "docid_pattern"):
        return {"type": "string", "pattern": _whole(spec.docid_pattern)}
    return {"type": "string"}


def _citations(spec: TrackSpec, shape: str) -> dict[str, Any]:
    """The `citations` value of one sentence in one of the three shapes."""
    out: dict[str, Any]
    if shape == "rag24":
        out = {"type": "array", "items": {"type": "integer", "minimum": 0}}
    elif shape == "neuclir":
        out = {"type": "array", "items": _doc_id(spec)}
    else:  # ragtime: doc id -> score
        out = {"type": "object", "additionalProperties": {"type": "number"}}
        if spec.docid_pattern and _errors(spec, "docid_pattern"):
            out["propertyNames"] = {"pattern": _whole(spec.docid_pattern)}
    limit = spec.max_citations_per_sentence
    if limit is not None and _errors(spec, "citation_count"):
        out["maxProperties" if shape == "ragtime" else "maxItems"] = limit
    return out


def _sentences(spec: TrackSpec) -> dict[str, Any]:
    """The sentence list: every sentence in one of the shapes the track accepts."""
    shapes = []
    for shape in spec.sentence_type:
        sentence: dict[str, Any] = {
            "type": "object",
            "required": ["text", "citations"] if spec.require_citations_key else ["text"],
            "properties": {
                "text": {"type": "string"},
                "citations": _citations(spec, shape),
                "metadata": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                "evaldata": {"anyOf": [{"type": "object"}, {"type": "null"}]},
            },
        }
        shapes.append({"type": "array", "items": sentence, "title": f"sentences citing as {shape}"})
    return shapes[0] if len(shapes) == 1 else {"anyOf": shapes}


def _references(spec: TrackSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
    if spec.references_kind in ("retrieval_list", "cited_only"):
        out["items"] = _doc_id(spec)
        if (
            spec.references_kind == "retrieval_list"
            and spec.references_max is not None
            and _errors(spec, "references_max")
        ):
            out["maxItems"] = spec.references_max
    return out


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A field's schema without its `null` alternative (a required field must have a value)."""
    options: list[dict[str, Any]] = schema.get("anyOf") or []
    if set(schema) == {"anyOf"} and {"type": "null"} in options:
        rest = [o for o in options if o != {"type": "null"}]
        return dict(rest[0]) if len(rest) == 1 else {"anyOf": rest}
    return schema


def _merged(schema: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Both schemas' constraints: one object when they do not overlap, else `allOf`."""
    if all(k not in schema or schema[k] == v for k, v in more.items()):
        return schema | more
    return {"allOf": [schema, more]}


def _metadata_rules(spec: TrackSpec, properties: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """(required keys, extra `allOf` parts) of the metadata the spec asks for; `properties`
    gains the spec's own constraints (ids as strings, allowed values, run id length)."""
    required: list[str] = []
    extra: list[dict[str, Any]] = []

    def constrain(key: str, more: dict[str, Any]) -> None:
        properties[key] = _merged(properties.get(key, {}), more)

    for key in spec.mandatory_metadata if _errors(spec, "metadata") else ():
        if spec.layout == "metadata" and key in TOPIC_ID_ALIASES:
            # the reference model fills each alias from the others: any one will do
            extra.append(
                {
                    "anyOf": [
                        {"required": [alias], "properties": {alias: _NOT_BLANK}} for alias in TOPIC_ID_ALIASES
                    ]
                }
            )
            continue
        required.append(key)
        properties[key] = _not_null(properties.get(key, {}))
        if "string" in str(properties[key].get("type", "string")):
            constrain(key, _NOT_BLANK)
    for key in spec.string_ids if _errors(spec, "id_type") else ():
        constrain(key, {"type": "string"})
    for key, allowed in spec.metadata_values.items() if _errors(spec, "metadata_value") else ():
        constrain(key, {"enum": list(allowed)})
    if spec.run_id_max_len is not None and _errors(spec, "run_id_length"):
        constrain("run_id", {"maxLength": spec.run_id_max_len})
    return required, extra


def report_schema(spec: TrackSpec, spec_id: str | None = None) -> dict[str, Any]:
    """The JSON Schema of one report (one line of a JSONL run) of `spec`."""
    name = spec_id or spec.track
    flat = spec.layout == "flat"
    top = FLAT_FIELDS if flat else REPORT_FIELDS
    properties: dict[str, Any] = {key: _field(top, key, t, req) for key, (t, req) in top.items()}
    required = [key for key, (_, req) in top.items() if req]
    properties[spec.sentences_key] = _sentences(spec)
    if spec.sentences_key not in required:
        required.append(spec.sentences_key)
    properties["references"] = _references(spec)
    if spec.require_references_key and "references" not in required:
        required.append("references")
    schema: dict[str, Any] = {
        "$schema": DRAFT,
        "title": f"One report of a {name} run",
        "description": spec.description or f"A report of track spec {name}",
        "$comment": f"Generated by `citelens schema --spec {name}` from the spec data. Word and "
        "character limits, index ranges, topics and cross-report rules are checked by "
        "`citelens check` only.",
        "type": "object",
    }
    if flat:
        meta_required, extra = _metadata_rules(spec, properties)
        required += [k for k in meta_required if k not in required]
    else:
        meta_props: dict[str, Any] = {
            k: _field(METADATA_FIELDS, k, t, r) for k, (t, r) in METADATA_FIELDS.items()
        }
        meta_required, meta_extra = _metadata_rules(spec, meta_props)
        metadata: dict[str, Any] = {"type": "object", "properties": meta_props}
        if meta_required:
            metadata["required"] = meta_required
        if meta_extra:
            metadata["allOf"] = meta_extra
        if spec.forbid_extra_metadata and _errors(spec, "metadata"):
            allowed = set(spec.mandatory_metadata) | set(spec.recommended_metadata)
            metadata["properties"] = {k: v for k, v in meta_props.items() if k in allowed} | {
                k: {} for k in allowed if k not in meta_props
            }
            metadata["additionalProperties"] = False
        properties["metadata"] = metadata
        extra = []
    schema["required"] = required
    schema["properties"] = properties
    if extra:
        schema["allOf"] = extra
    return schema
