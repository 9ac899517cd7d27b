"""Metadata for the target spec: the run's identity and topic, plus what the spec asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens.models.metadata import ReportMetaData

if TYPE_CHECKING:
    from citelens.specs import TrackSpec


def map_metadata(source: ReportMetaData, spec: TrackSpec) -> ReportMetaData:
    """Rebuild metadata for `spec`.

    team_id and run_id are kept, the topic id goes under the spec's topic field, the
    spec's mandatory and recommended keys are filled from the source where it has them
    (the spec's narrative field from `narrative`), and every other key is dropped.
    A required key the source lacks stays empty, for the checker to report.
    """
    fields: dict[str, Any] = {
        "team_id": source.team_id,
        "run_id": source.run_id,
        spec.topic_id_field: source.topic_id,
    }
    for key in (*spec.mandatory_metadata, *spec.recommended_metadata):
        if key in fields:
            continue
        if key == spec.narrative_field:
            fields.setdefault("narrative", source.narrative)
        elif key in ReportMetaData.model_fields:
            fields[key] = getattr(source, key)
    return ReportMetaData(**fields)
