"""Seed 2's groundedness over plain numbers, without the pydantic models (so a caller
that needs only the figure, such as `check --support`'s text summary, does not import
them); `compute_hallucination_metrics` computes its figure here too."""

from __future__ import annotations

from collections.abc import Iterable


def char_groundedness(spans: Iterable[tuple[int, str, float]], *, include_partial: bool = True) -> float:
    """The length-weighted mean confidence of the grounded spans (supported, and partial
    unless excluded) over all characters; 1.0 when there are none. ``spans`` holds
    (length in characters, status, confidence) per span."""
    weighted = 0.0
    total = 0
    for length, status, confidence in spans:
        total += length
        if status == "supported" or (status == "partial" and include_partial):
            weighted += confidence * length
    return weighted / total if total > 0 else 1.0
