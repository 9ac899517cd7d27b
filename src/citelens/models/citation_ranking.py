"""Citation priority as numbers and as order, and the move between the two.

Every wire shape states a sentence's citation priority: ragtime as a confidence, neuclir
and rag24 as list position. Conversion ranks once into (doc_id, confidence) pairs and
serves every target from them. This module imports no models, so the models can use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias

RankedCitations: TypeAlias = list[tuple[str, float]]
"""(doc_id, confidence) pairs, highest confidence first, ties in submitted order."""

EmittedCitations: TypeAlias = "dict[str, float] | list[str] | list[int]"
"""One sentence's citations in one wire shape (ragtime map, neuclir ids, rag24 positions)."""


def rank_confidences(doc_ids: Iterable[str]) -> dict[str, float]:
    """Stand-in confidences 1/rank for an order-only citation list.

    They encode position, not a model score, so they must never be compared with real
    ragtime scores. A repeated id keeps its first (higher-priority) position.
    """
    unique = dict.fromkeys(doc_ids)
    return {doc_id: 1.0 / rank for rank, doc_id in enumerate(unique, start=1)}


def rank_citations(citations: Mapping[str, float] | None) -> RankedCitations | None:
    """Order a confidence map by descending confidence; `None` (cited nothing) stays `None`."""
    if citations is None:
        return None
    return sorted(citations.items(), key=lambda pair: pair[1], reverse=True)


def ordered_ids(citations: Mapping[str, float] | None) -> list[str]:
    """Doc ids of a confidence map in priority order (an absent map gives no ids)."""
    return [doc_id for doc_id, _ in rank_citations(citations) or []]


def resolve_positions(positions: Iterable[int] | None, references: list[str]) -> list[str]:
    """Doc ids behind rag24 positions; positions outside `references` are skipped."""
    return [references[i] for i in positions or [] if 0 <= i < len(references)]


def truncate(ranked: RankedCitations | None, limit: int | None) -> RankedCitations | None:
    """Keep the `limit` top-ranked citations (no limit, or nothing cited: unchanged)."""
    if ranked is None or limit is None:
        return ranked
    return ranked[:limit]
