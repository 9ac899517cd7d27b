"""The flat layout (TREC RAG 2024): metadata keys at the top level, not under `metadata`.

A flat line is `run_id, topic_id, topic, references, response_length, answer`. Which of
its keys is the topic text and which the declared length comes from the spec
(`narrative_field`, `response_length_field`), so these functions hold no track names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from citelens.check.rules.length import word_count

if TYPE_CHECKING:
    from citelens.specs import TrackSpec


def is_flat(spec: TrackSpec | None) -> TypeGuard[TrackSpec]:
    """Whether a spec lays metadata out at the top level."""
    return spec is not None and spec.layout == "flat"


def structural_keys(spec: TrackSpec) -> set[str]:
    """Top-level keys of a flat line that are not metadata."""
    keys = {spec.sentences_key, "references"}
    if spec.response_length_field:
        keys.add(spec.response_length_field)
    return keys


def flat_to_nested(value: dict[str, Any], spec: TrackSpec) -> dict[str, Any]:
    """A flat line as a `metadata`-wrapped value the `Report` model loads.

    The topic text moves to `narrative`, an int topic id becomes a string, and the
    declared length is left out (it is derived from the text).
    """
    structural = structural_keys(spec)
    metadata: dict[str, Any] = {}
    for key, item in value.items():
        if key in structural:
            continue
        if key == spec.narrative_field:
            metadata["narrative"] = item
        elif key == spec.topic_id_field and isinstance(item, int) and not isinstance(item, bool):
            metadata[key] = str(item)
        else:
            metadata[key] = item
    nested: dict[str, Any] = {"metadata": metadata}
    for key in (spec.sentences_key, "references"):
        if key in value:
            nested[key] = value[key]
    return nested


def nested_to_flat(wire: dict[str, Any], spec: TrackSpec) -> dict[str, Any]:
    """A `metadata`-wrapped wire dict laid out flat, keys in the spec's mandatory order.

    The narrative goes under the spec's narrative field and the declared length is the
    computed word count.
    """
    metadata = wire.get("metadata") or {}
    sentences = wire.get(spec.sentences_key) or []
    flat: dict[str, Any] = {}
    for key in (*spec.mandatory_metadata, *spec.recommended_metadata):
        if key == "references":
            flat[key] = wire.get("references")
        elif key == spec.response_length_field:
            flat[key] = word_count(s["text"] for s in sentences)
        elif key == spec.narrative_field:
            flat[key] = metadata.get("narrative")
        elif key in metadata:
            flat[key] = metadata[key]
    if "references" in wire and "references" not in flat:
        flat["references"] = wire["references"]
    flat[spec.sentences_key] = wire.get(spec.sentences_key)
    return flat
