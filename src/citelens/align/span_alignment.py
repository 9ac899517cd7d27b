"""Citations for one answer span: select candidate passages, settle them, rank, status."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from citelens.align.bounded_search import CITATION, EPS, SUPPORT, UNKNOWN, bounded_search, can_skip
from citelens.align.candidate_outcomes import Outcome, SpanContext, align_candidates, settle
from citelens.align.evidence import SupportDraft, make_citation, make_support
from citelens.align.lexical import LexicalMatch, content_coverage, match_passages, top_lexical
from citelens.align.status import rank_citations, span_status
from citelens.align.structured import split_range_dashes

if TYPE_CHECKING:
    from citelens.align.models import Citation, RetrievalSupport

__all__ = ["SpanContext", "search_span"]


def search_span(
    ctx: SpanContext, text: str, answer_ids: list[int], query_vector: Sequence[float] | None = None
) -> tuple[list[Citation], list[RetrievalSupport], str]:
    """(ranked citations, ranked support, status) for one answer span."""
    cfg, corpus = ctx.cfg, ctx.corpus
    out = Outcome([], [])
    if answer_ids and corpus.num_passages:
        lex = match_passages(corpus, answer_ids, ctx.stop_ids, ctx.has_vocab)
        ps = top_lexical(corpus, lex.score, cfg.max_candidates_lexical)
        lexical = lex.score[ps]
        emb = np.zeros(ps.shape[0])
        if ctx.embedding_index is not None and query_vector is not None and cfg.max_candidates_embedding > 0:
            chosen = {int(p): (0.0, float(s)) for p, s in zip(ps.tolist(), lexical.tolist())}
            for p, sim in ctx.embedding_index.top_k(query_vector, cfg.max_candidates_embedding):
                chosen[p] = (sim, chosen.get(p, (0.0, 0.0))[1])
            src = corpus.passage_source_index
            ordered = sorted(chosen.items(), key=lambda x: (-max(x[1]), int(src[x[0]]), x[0]))
            ps = np.asarray([p for p, _ in ordered], dtype=np.int64)
            emb = np.asarray([v[0] for _, v in ordered])
            lexical = np.asarray([v[1] for _, v in ordered])
        if cfg.max_candidates_total > 0:
            ps, emb, lexical = (
                ps[: cfg.max_candidates_total],
                emb[: cfg.max_candidates_total],
                lexical[: cfg.max_candidates_total],
            )
        if ps.size:
            _align_selected(ctx, text, answer_ids, ps, emb, lexical, lex, out)
    drafts = rank_citations(out.citations, cfg)
    citations = [make_citation(corpus, d) for d in drafts]
    passage = corpus.passage_text(drafts[0].candidate_index) if drafts else ""
    status = span_status(drafts, cfg, text, passage, citations[0].evidence if citations else "")
    support = (
        [] if cfg.max_retrieval_support <= 0 else heapq.nsmallest(cfg.max_retrieval_support, out.support)
    )
    drafts_support = [SupportDraft(-e[0], e[1], e[2], e[3], e[4], e[5]) for e in support]
    return citations, [make_support(corpus, d) for d in drafts_support], status


def _align_selected(
    ctx: SpanContext,
    text: str,
    answer_ids: list[int],
    ps: np.ndarray,
    emb_arr: np.ndarray,
    lexical_arr: np.ndarray,
    lex: LexicalMatch,
    out: Outcome,
) -> None:
    cfg, corpus = ctx.cfg, ctx.corpus
    m = len(answer_ids)
    emb = emb_arr.tolist()
    lexical = lexical_arr.tolist()
    coverage = lex.content_coverage[ps].tolist()
    structured = corpus.any_structured and bool(corpus.passage_structured[ps].any())

    if structured or not can_skip(cfg, ctx):  # align everything, as the reference does
        hits = align_candidates(ctx, answer_ids, ps.tolist())
        cited: set[int] = set()
        for k, hit in enumerate(hits):
            if settle(ctx, int(ps[k]), hit, answer_ids, lexical[k], emb[k], coverage[k], out):
                cited.add(int(ps[k]))
        if structured:
            _retry_structured(ctx, text, ps, emb, lexical, cited, out)
        return

    w = cfg.weights
    shared = lex.shared[ps]
    bound = (
        (w.alignment + w.answer_coverage) * shared / m + w.evidence_coverage + w.lexical * lexical_arr + EPS
    )
    floor = cfg.min_answer_coverage
    certain = (
        cfg.min_alignment_score <= cfg.match_score
        and not cfg.require_all_answer_tokens_in_evidence
        and cfg.min_final_score <= 0.0
    )
    klass = np.full(len(ps), UNKNOWN, dtype=np.int8)
    cov = lex.content_coverage[ps]
    klass[(cov <= 0.0) | ((cov < floor) & (shared / m < floor))] = SUPPORT
    if certain:
        klass[(cov > 0.0) & (cov >= floor)] = CITATION

    bounded_search(ctx, answer_ids, ps, emb, lexical, coverage, bound.tolist(), klass.tolist(), certain, out)


def _retry_structured(
    ctx: SpanContext,
    text: str,
    ps: np.ndarray,
    emb: list[float],
    lexical: list[float],
    cited: set[int],
    out: Outcome,
) -> None:
    """Gap-free re-alignment of uncited passages of field:value sources."""
    cfg, corpus = ctx.cfg, ctx.corpus
    if not isinstance(cfg.gap_score, int) or cfg.gap_score >= 0:
        return
    answer_ids = ctx.tokenizer.tokenize(split_range_dashes(text)).token_ids
    if not answer_ids:
        return
    picks = [
        k
        for k, p in enumerate(ps.tolist())
        if p not in cited
        and corpus.structured[corpus.passage_source[p]]
        and corpus.passage_hi[p] > corpus.passage_lo[p]
    ]
    if not picks:
        return
    hits = align_candidates(ctx, answer_ids, [int(ps[k]) for k in picks], gap=0)
    newly: set[int] = set()
    for k, hit in zip(picks, hits):
        p = int(ps[k])
        coverage = (
            content_coverage(answer_ids, corpus.passage_tokens(p).tolist(), ctx.stop_ids)
            if ctx.has_vocab
            else 0.0
        )
        trial = Outcome([], [])
        if settle(ctx, p, hit, answer_ids, lexical[k], emb[k], coverage, trial):
            out.citations.extend(trial.citations)
            newly.add(p)
    if newly:
        out.support[:] = [s for s in out.support if s[3] not in newly]
