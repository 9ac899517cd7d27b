"""From an alignment to a citation: metrics, the coverage gate, evidence spans, final score.

Evidence boundaries are token boundaries, cut from the full document at absolute
offsets (chunk base + passage start + token offset), so ``text[start:end] == evidence``
holds against the whole document whenever it is known.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from citelens.align.config import CitationConfig
from citelens.align.corpus import PreparedCorpus
from citelens.align.smith_waterman import Hit

if TYPE_CHECKING:
    from citelens.align.models import Citation, RetrievalSupport

#: two citations with equal keys (same source, same evidence spans) are duplicates
EvidenceKey: TypeAlias = tuple[str, tuple[tuple[int, int], ...]]


@dataclass(slots=True)
class Scored:
    """Alignment metrics of one (span, passage) pair and its weighted score."""

    matches: int
    answer_coverage: float
    evidence_coverage: float
    normalized_alignment: float
    score: float


def score_hit(hit: Hit, n_answer: int, lexical: float, embedding: float, cfg: CitationConfig) -> Scored:
    if hit.score > 0 and hit.matches <= 0:
        raise RuntimeError("citation scoring needs an aligner that reports match counts")
    matches = hit.matches
    answer_coverage = matches / max(1, n_answer)
    evidence_coverage = matches / max(1, hit.token_end - hit.token_start)
    normalized = hit.score / max(1, cfg.match_score * n_answer)
    w = cfg.weights
    score = (
        w.alignment * normalized
        + w.answer_coverage * answer_coverage
        + w.evidence_coverage * evidence_coverage
        + w.lexical * lexical
        + w.embedding * max(0.0, embedding)
    )
    return Scored(matches, answer_coverage, evidence_coverage, normalized, score)


def passes_gate(hit: Hit, scored: Scored, passage_coverage: float, cfg: CitationConfig) -> bool:
    """Enough in-order matches, or enough content words anywhere in the passage.

    A passage sharing only stopwords never passes, however the alignment went.
    """
    if hit.score < cfg.min_alignment_score or hit.token_start >= hit.token_end:
        return False
    floor = cfg.min_answer_coverage
    return passage_coverage > 0.0 and (scored.answer_coverage >= floor or passage_coverage >= floor)


def contains_all(answer_ids: Iterable[int], evidence_ids: Iterable[int]) -> bool:
    """Every answer token occurs in the evidence, counting repeats."""
    needed = Counter(answer_ids)
    for t in evidence_ids:
        left = needed.get(t)
        if left is None:
            continue
        if left == 1:
            del needed[t]
            if not needed:
                return True
        else:
            needed[t] = left - 1
    return not needed


def _char_span(corpus: PreparedCorpus, p: int, token_start: int, token_end: int) -> tuple[int, int] | None:
    """Absolute document offsets of passage tokens [token_start, token_end)."""
    lo = int(corpus.passage_lo[p])
    count = int(corpus.passage_hi[p]) - lo
    if token_start < 0 or token_end > count or token_start >= token_end:
        return None
    p_start = int(corpus.passage_starts[p])
    p_end = int(corpus.passage_ends[p])
    start = max(int(corpus.token_starts[lo + token_start]), p_start)
    end = min(int(corpus.token_ends[lo + token_end - 1]), p_end)
    base = corpus.sources[corpus.passage_source[p]].base_offset
    if start >= end:
        return None
    return base + start, base + end


def evidence_spans(
    corpus: PreparedCorpus, p: int, hit: Hit, cfg: CitationConfig
) -> list[tuple[int, int]] | None:
    """One span for the alignment, or one per match block in multi-span mode."""
    spans: list[tuple[int, int]] = []
    if cfg.multi_span_evidence and hit.match_blocks:
        for block_start, block_end in hit.match_blocks:
            span = _char_span(corpus, p, block_start, block_end)
            if span is not None:
                spans.append(span)
        spans.sort()
        if spans and cfg.multi_span_merge_gap_chars > 0:
            merged = [spans[0]]
            for start, end in spans[1:]:
                last_start, last_end = merged[-1]
                if start - last_end <= cfg.multi_span_merge_gap_chars:
                    merged[-1] = (last_start, max(last_end, end))
                else:
                    merged.append((start, end))
            spans = merged
        if cfg.multi_span_max_spans > 0 and len(spans) > cfg.multi_span_max_spans:
            spans = []
        if spans and len(hit.match_blocks) > 1:
            return spans
    if not spans:
        span = _char_span(corpus, p, hit.token_start, hit.token_end)
        spans = [span] if span is not None else []
    return spans or None


@dataclass(slots=True)
class CitationDraft:
    """A citation before it becomes a pydantic model (only the ranked few ever do)."""

    score: float
    source_id: str
    source_index: int
    candidate_index: int
    char_start: int
    char_end: int
    spans: list[tuple[int, int]]
    hit: Hit
    scored: Scored
    lexical: float
    embedding: float

    @property
    def answer_coverage(self) -> float:
        return self.scored.answer_coverage

    @property
    def evidence_key(self) -> EvidenceKey:
        return (self.source_id, tuple(self.spans))


@dataclass(slots=True)
class SupportDraft:
    """A retrieval-support entry before it becomes a pydantic model."""

    retrieval_score: float
    source_index: int
    passage_char_start: int
    candidate_index: int
    lexical: float
    embedding: float


def draft_citation(
    corpus: PreparedCorpus,
    p: int,
    hit: Hit,
    scored: Scored,
    spans: list[tuple[int, int]],
    lexical: float,
    embedding: float,
) -> CitationDraft:
    source = corpus.sources[corpus.passage_source[p]]
    return CitationDraft(
        float(scored.score),
        source.source_id,
        source.source_index,
        p,
        min(s for s, _ in spans),
        max(e for _, e in spans),
        spans,
        hit,
        scored,
        lexical,
        embedding,
    )


def make_citation(corpus: PreparedCorpus, d: CitationDraft) -> Citation:
    from citelens.align.models import Citation, EvidenceSpan

    p, hit, scored, spans = d.candidate_index, d.hit, d.scored, d.spans
    source = corpus.sources[corpus.passage_source[p]]
    evidence_spans = [
        EvidenceSpan.model_construct(char_start=s, char_end=e, evidence=source.cut(s, e)) for s, e in spans
    ]
    return Citation.model_construct(
        score=d.score,
        source_id=d.source_id,
        source_index=d.source_index,
        candidate_index=p,
        char_start=d.char_start,
        char_end=d.char_end,
        evidence=source.cut(d.char_start, d.char_end),
        evidence_spans=evidence_spans,
        components={
            "alignment_score": float(hit.score),
            "normalized_alignment": float(scored.normalized_alignment),
            "matches": float(scored.matches),
            "answer_coverage": float(scored.answer_coverage),
            "evidence_coverage": float(scored.evidence_coverage),
            "lexical_score": float(d.lexical),
            "embedding_score": float(d.embedding),
            "num_evidence_spans": float(len(spans)),
            "evidence_chars_total": float(sum(e - s for s, e in spans)),
            "passage_char_start": float(corpus.passage_starts[p]),
            "passage_char_end": float(corpus.passage_ends[p]),
        },
    )


def make_support(corpus: PreparedCorpus, d: SupportDraft) -> RetrievalSupport:
    from citelens.align.models import RetrievalSupport

    p = d.candidate_index
    source = corpus.sources[corpus.passage_source[p]]
    start = d.passage_char_start
    end = source.base_offset + int(corpus.passage_ends[p])
    return RetrievalSupport.model_construct(
        retrieval_score=d.retrieval_score,
        source_id=source.source_id,
        source_index=source.source_index,
        candidate_index=p,
        passage_char_start=start,
        passage_char_end=end,
        passage_text=source.cut(start, end),
        embedding_score=float(d.embedding),
        lexical_score=float(d.lexical),
    )
