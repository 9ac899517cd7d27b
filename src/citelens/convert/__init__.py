"""Report conversion between track specs, on raw JSON values (`convert_value`) with loss
notes; the typed conversion (`convert`, `to_rag`, `to_ragtime`) is the models' own
(`citelens.models.conversion`) and is re-exported here."""

from __future__ import annotations

from citelens.check.rules.length import word_count
from citelens.convert.export import write_submission_output
from citelens.convert.flat import flat_to_nested, nested_to_flat
from citelens.convert.losses import LossNote
from citelens.convert.value import ConversionError, convert_value, report_from_value
from citelens.convert.wire import report_to_submission_dict, submission_dict
from citelens.models.citation_ranking import (
    EmittedCitations,
    RankedCitations,
    rank_citations,
    rank_confidences,
)
from citelens.models.conversion import convert, to_rag, to_ragtime
from citelens.models.metadata_map import map_metadata

__all__ = [
    "ConversionError",
    "EmittedCitations",
    "LossNote",
    "RankedCitations",
    "convert",
    "convert_value",
    "flat_to_nested",
    "map_metadata",
    "nested_to_flat",
    "rank_citations",
    "rank_confidences",
    "report_from_value",
    "report_to_submission_dict",
    "submission_dict",
    "to_rag",
    "to_ragtime",
    "word_count",
    "write_submission_output",
]
