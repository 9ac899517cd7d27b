"""Answer-level grounding figures from span results (character-weighted).

A span's confidence is the best ``answer_coverage`` among its citations (ties by
score), 0 without citations. Groundedness is the length-weighted mean confidence of
the grounded spans (supported, and partial unless excluded) over all characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from citelens.align.groundedness import char_groundedness
from citelens.align.models import AnswerSpan, Citation, SpanCitations, Status


class HallucinationConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    weak_citation_threshold: float = 0.4
    include_partial_in_grounded: bool = True


class SpanConfidence(BaseModel):
    """How well one span is backed."""

    model_config = ConfigDict(frozen=True)

    span: AnswerSpan
    status: Status
    confidence: float
    is_grounded: bool
    best_citation_score: float | None = None
    source_ids: list[str] = Field(default_factory=list)


class HallucinationMetrics(BaseModel):
    """Aggregate grounding of an answer; ratios are shares of the answer's characters."""

    model_config = ConfigDict(frozen=True)

    groundedness_score: float
    hallucination_rate: float
    supported_ratio: float
    partial_ratio: float
    unsupported_ratio: float
    avg_confidence: float
    min_confidence: float
    num_spans: int
    num_supported: int
    num_partial: int
    num_unsupported: int
    num_weak_citations: int
    span_confidences: list[SpanConfidence] = Field(default_factory=list)
    unsupported_spans: list[AnswerSpan] = Field(default_factory=list)
    weakly_supported_spans: list[AnswerSpan] = Field(default_factory=list)


def _coverage(citation: Citation) -> float:
    return float(citation.components.get("answer_coverage", 0.0))


def compute_hallucination_metrics(
    span_citations: Sequence[SpanCitations], *, config: HallucinationConfig | None = None
) -> HallucinationMetrics:
    cfg = config or HallucinationConfig()
    if not span_citations:
        return HallucinationMetrics(
            groundedness_score=1.0,
            hallucination_rate=0.0,
            supported_ratio=1.0,
            partial_ratio=0.0,
            unsupported_ratio=0.0,
            avg_confidence=1.0,
            min_confidence=1.0,
            num_spans=0,
            num_supported=0,
            num_partial=0,
            num_unsupported=0,
            num_weak_citations=0,
        )
    chars = {"supported": 0, "partial": 0, "unsupported": 0}
    counts = {"supported": 0, "partial": 0, "unsupported": 0}
    confidences: list[float] = []
    per_span: list[SpanConfidence] = []
    unsupported: list[AnswerSpan] = []
    weak: list[AnswerSpan] = []
    figures: list[tuple[int, str, float]] = []
    total = 0
    for sc in span_citations:
        length = len(sc.answer_span.text)
        total += length
        chars[sc.status] += length
        counts[sc.status] += 1
        confidence, best_score, source_ids = 0.0, None, []
        if sc.citations:
            best = max(sc.citations, key=lambda c: (_coverage(c), c.score))
            confidence, best_score = _coverage(best), best.score
            source_ids = list({c.source_id for c in sc.citations})
            if confidence < cfg.weak_citation_threshold:
                weak.append(sc.answer_span)
        grounded = sc.status == "supported" or (sc.status == "partial" and cfg.include_partial_in_grounded)
        if sc.status == "unsupported":
            unsupported.append(sc.answer_span)
        figures.append((length, sc.status, confidence))
        confidences.append(confidence)
        per_span.append(
            SpanConfidence(
                span=sc.answer_span,
                status=sc.status,
                confidence=confidence,
                is_grounded=grounded,
                best_citation_score=best_score,
                source_ids=source_ids,
            )
        )
    groundedness = char_groundedness(figures, include_partial=cfg.include_partial_in_grounded)
    if total > 0:
        ratios = (chars["supported"] / total, chars["partial"] / total, chars["unsupported"] / total)
    else:
        ratios = (1.0, 0.0, 0.0)
    return HallucinationMetrics(
        groundedness_score=groundedness,
        hallucination_rate=1.0 - groundedness,
        supported_ratio=ratios[0],
        partial_ratio=ratios[1],
        unsupported_ratio=ratios[2],
        avg_confidence=sum(confidences) / len(confidences),
        min_confidence=min(confidences),
        num_spans=len(span_citations),
        num_supported=counts["supported"],
        num_partial=counts["partial"],
        num_unsupported=counts["unsupported"],
        num_weak_citations=len(weak),
        span_confidences=per_span,
        unsupported_spans=unsupported,
        weakly_supported_spans=weak,
    )
