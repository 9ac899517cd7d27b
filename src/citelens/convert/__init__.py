"""Report conversion between track specs: typed (`convert`) and on raw JSON values (`convert_value`).

Names load on first use, so that `citelens.models` can use the ranking helpers without
importing the converter (which imports the models).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "convert": "citelens.convert.convert",
    "to_rag": "citelens.convert.convert",
    "to_ragtime": "citelens.convert.convert",
    "submission_dict": "citelens.convert.wire",
    "report_to_submission_dict": "citelens.convert.wire",
    "write_submission_output": "citelens.convert.export",
    "map_metadata": "citelens.convert.metadata_map",
    "flat_to_nested": "citelens.convert.flat",
    "nested_to_flat": "citelens.convert.flat",
    "word_count": "citelens.convert.flat",
    "report_from_value": "citelens.convert.value",
    "convert_value": "citelens.convert.value",
    "ConversionError": "citelens.convert.value",
    "LossNote": "citelens.convert.losses",
    "rank_confidences": "citelens.convert.ranking",
    "rank_citations": "citelens.convert.ranking",
    "RankedCitations": "citelens.convert.ranking",
    "EmittedCitations": "citelens.convert.ranking",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'citelens.convert' has no attribute {name!r}")
    value = getattr(import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value
