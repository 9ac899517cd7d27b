"""`convert_value`: convert one raw report value and say what did not survive.

This is the entry point for the CLI and the editor: JSON in, JSON out, plus a
`LossNote` for everything the target cannot express (confidences, citations over the
cap, metadata keys, out-of-range positions, ...), each pointing into the source value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from citelens.convert.flat import flat_to_nested, is_flat
from citelens.convert.loss_scan import LossScan
from citelens.convert.losses import LossNote
from citelens.convert.wire import submission_dict
from citelens.models.conversion import convert
from citelens.models.report import Report
from citelens.specs import require_spec

if TYPE_CHECKING:
    from citelens.specs import TrackSpec


class ConversionError(ValueError):
    """The value is not a report the models can load, so it cannot be converted."""


def _nested(
    value: Mapping[str, Any], spec_from: TrackSpec | None, defaults: Mapping[str, Any] | None
) -> dict[str, Any]:
    nested = flat_to_nested(dict(value), spec_from) if is_flat(spec_from) else dict(value)
    metadata = nested.get("metadata")
    if isinstance(metadata, dict):
        metadata = dict(metadata)
        for key, item in (defaults or {}).items():
            if metadata.get(key) is None:
                metadata[key] = item
        if is_flat(spec_from):
            metadata.setdefault("team_id", "")  # the flat layout has no team
        nested["metadata"] = metadata
    return nested


def report_from_value(
    value: Mapping[str, Any],
    spec: TrackSpec | str | None = None,
    *,
    defaults: Mapping[str, Any] | None = None,
) -> Report:
    """Load one raw report value; a flat-layout `spec` reads the flat layout.

    `defaults` fills metadata keys the value lacks (e.g. `team_id` for a flat line).
    Raises `ConversionError` when the value is not a loadable report.
    """
    spec_from = require_spec(spec) if spec is not None else None
    if not isinstance(value, Mapping):
        raise ConversionError(f"a report is a JSON object, not {type(value).__name__}")
    try:
        return Report.model_validate(_nested(value, spec_from, defaults))
    except (ValidationError, ValueError, RuntimeError, TypeError) as exc:
        raise ConversionError(f"not a loadable report: {exc}") from exc


def convert_value(
    value: Mapping[str, Any],
    spec_from: TrackSpec | str | None,
    spec_to: TrackSpec | str,
    *,
    defaults: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], list[LossNote]]:
    """Convert a raw report value from `spec_from`'s layout to `spec_to`'s wire value.

    `spec_from` only tells how to read the value (flat or `metadata`-wrapped; `None`:
    wrapped). Returns the converted value and the notes on what was lost or changed.
    """
    source_spec = require_spec(spec_from) if spec_from is not None else None
    target = require_spec(spec_to)
    report = report_from_value(value, source_spec, defaults=defaults)
    out = submission_dict(convert(report, target), target)
    return out, LossScan(value, source_spec, target, report, out).notes()
