"""`submission_dict(report, spec)`: a report as the JSON value a track expects."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from citelens.convert.flat import nested_to_flat
from citelens.models.conversion import convert
from citelens.models.report import Report
from citelens.specs import require_spec

if TYPE_CHECKING:
    from citelens.specs import TrackSpec


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def submission_dict(report: Report, spec: TrackSpec | str) -> dict[str, Any]:
    """The wire value of a report already in `spec`'s shape (use `convert` first otherwise).

    Metadata holds only the spec's mandatory keys (always, even when empty) and its
    recommended keys (when set), the topic id as a string; sentences carry only `text`
    and `citations`; `references` is written unless the spec has none. Flat-layout specs
    get their keys at the top level.
    """
    spec = require_spec(spec)
    md = report.metadata
    metadata: dict[str, Any] = {}
    for key in (*spec.mandatory_metadata, *spec.recommended_metadata):
        value = getattr(md, key, None)
        if value is None and key not in spec.mandatory_metadata:
            continue
        metadata[key] = str(value) if key == spec.topic_id_field else _plain(value)
    if spec.layout == "flat" and spec.narrative_field != "narrative":
        metadata["narrative"] = md.narrative
    wire: dict[str, Any] = {"metadata": metadata}
    if spec.references_kind != "none":
        wire["references"] = report.references
    wire[spec.sentences_key] = [{"text": s.text, "citations": s.citations} for s in report.responses or []]
    return nested_to_flat(wire, spec) if spec.layout == "flat" else wire


def report_to_submission_dict(report: Report, spec: TrackSpec | str) -> dict[str, Any]:
    """`convert` then `submission_dict`: any report as `spec`'s wire value."""
    return submission_dict(convert(report, spec), spec)
