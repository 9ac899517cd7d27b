"""What one candidate passage becomes for an answer span: a citation or a support entry.

``align_candidates`` runs the aligner (ours, vectorised, or a user-supplied one) on a
list of passages; ``settle`` applies the metrics, the coverage gate, the all-tokens
rule and the evidence extraction to one alignment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from citelens.align.components import AlignmentLike, CustomAligner, TextTokenizer
from citelens.align.config import CitationConfig
from citelens.align.corpus import PreparedCorpus
from citelens.align.embeddings import EmbeddingIndex
from citelens.align.evidence import (
    CitationDraft,
    contains_all,
    draft_citation,
    evidence_spans,
    passes_gate,
    score_hit,
)
from citelens.align.smith_waterman import Hit, SmithWatermanAligner, align_many

#: a support candidate: (-score, source index, passage start, passage, lexical, embedding),
#: so that plain tuple order is the reference's support order
SupportEntry: TypeAlias = tuple[float, int, int, int, float, float]


@dataclass(slots=True)
class SpanContext:
    """What the per-span search needs besides the span: corpus, settings, components."""

    corpus: PreparedCorpus
    cfg: CitationConfig
    tokenizer: TextTokenizer
    aligner: CustomAligner | None = None  # a custom aligner object, or None for ours
    embedding_index: EmbeddingIndex | None = None
    stop_ids: frozenset[int] = frozenset()
    has_vocab: bool = True
    alignments: int = 0
    timings: dict[str, float] = field(default_factory=lambda: {"align_ms": 0.0})


@dataclass(slots=True)
class Outcome:
    citations: list[CitationDraft]
    support: list[SupportEntry]


def align_candidates(
    ctx: SpanContext, answer_ids: Sequence[int], passages: list[int], gap: int | None = None
) -> list[Hit]:
    corpus, cfg = ctx.corpus, ctx.cfg
    targets = [corpus.passage_tokens(p) for p in passages]
    ctx.alignments += len(passages)
    if ctx.aligner is None or gap is not None:
        return align_many(
            answer_ids,
            targets,
            cfg.match_score,
            cfg.mismatch_score,
            cfg.gap_score if gap is None else gap,
            with_blocks=cfg.multi_span_evidence,
        )
    if isinstance(ctx.aligner, SmithWatermanAligner):
        return ctx.aligner.hits(answer_ids, targets)
    batch = getattr(ctx.aligner, "align_batch", None)
    lists = [t.tolist() for t in targets]
    raw: list[AlignmentLike] = (
        batch(answer_ids, lists) if batch is not None else [ctx.aligner.align(answer_ids, t) for t in lists]
    )
    return [
        Hit(
            a.score,
            a.token_start,
            a.token_end,
            getattr(a, "query_start", 0),
            getattr(a, "query_end", 0),
            getattr(a, "matches", 0),
            [tuple(b) for b in getattr(a, "match_blocks", [])],
        )
        for a in raw
    ]


def trusted(ctx: SpanContext) -> bool:
    return ctx.aligner is None or type(ctx.aligner) is SmithWatermanAligner


def settle(
    ctx: SpanContext,
    p: int,
    hit: Hit,
    answer_ids: Sequence[int],
    lexical: float,
    embedding: float,
    coverage: float,
    out: Outcome,
) -> bool:
    """Turn one alignment into a citation (True) or a support entry (False)."""
    cfg, corpus = ctx.cfg, ctx.corpus
    scored = score_hit(hit, len(answer_ids), lexical, embedding, cfg)
    ok = passes_gate(hit, scored, coverage, cfg)
    if (
        ok
        and cfg.require_all_answer_tokens_in_evidence
        and not (trusted(ctx) and hit.matches == len(answer_ids))
    ):
        ok = contains_all(answer_ids, corpus.passage_tokens(p)[hit.token_start : hit.token_end].tolist())
    spans = evidence_spans(corpus, p, hit, cfg) if ok else None
    if spans is not None and scored.score >= cfg.min_final_score:
        out.citations.append(draft_citation(corpus, p, hit, scored, spans, lexical, embedding))
        return True
    if lexical <= 0.0 and embedding < cfg.min_embedding_similarity:
        return False
    out.support.append(support_entry(corpus, p, scored.score, lexical, embedding))
    return False


def support_entry(
    corpus: PreparedCorpus, p: int, score: float, lexical: float, embedding: float
) -> SupportEntry:
    """A support candidate as a tuple that sorts in the reference's support order."""
    source = corpus.sources[corpus.passage_source[p]]
    start = source.base_offset + int(corpus.passage_starts[p])
    return (-float(score), source.source_index, start, p, float(lexical), float(embedding))
