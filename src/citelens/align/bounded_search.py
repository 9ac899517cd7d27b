"""The bounded search: align only the passages that can still change a span's result.

The reference aligns every selected passage (up to 400). The result only depends on
the best few citations (``top_k``, per-source caps) and the best few support entries,
so passages are visited best-bound-first and skipped once the results settled so far
keep them out of both lists. The bound of a passage's score uses its shared-token
count and exact lexical score; a passage sharing no content word can never become a
citation, and one with enough content words always does (default gate).

Most passages are then settled without the full dynamic programme: a verbatim answer
by a byte search, short chains of matching cells exactly (``match_chains``), passages
without two nearby answer tokens in bulk (they align to a single match). Only the few
passages whose evidence offsets are needed go through the vectorised Smith-Waterman.
The output is the same as aligning everything (tested on every preset).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import TypeAlias

import numpy as np

from citelens.align.candidate_outcomes import (
    Outcome,
    SpanContext,
    align_candidates,
    settle,
    support_entry,
    trusted,
)
from citelens.align.config import CitationConfig
from citelens.align.evidence import score_hit
from citelens.align.match_chains import best_chain, longest_chain
from citelens.align.smith_waterman import Hit
from citelens.align.status import rank_citations

#: passages still to visit: (-bound, position in the selection), a min-heap
Queue: TypeAlias = list[tuple[float, int]]

EPS = 1e-9
SUPPORT, UNKNOWN, CITATION = 0, 1, 2


def can_skip(cfg: CitationConfig, ctx: SpanContext) -> bool:
    w = cfg.weights
    return (
        trusted(ctx)
        and ctx.embedding_index is None
        and ctx.has_vocab
        and cfg.match_score > 0
        and cfg.mismatch_score <= 0
        and cfg.gap_score <= 0
        and min(w.alignment, w.answer_coverage, w.evidence_coverage, w.lexical, w.embedding) >= 0
    )


def thresholds(
    out: Outcome, cfg: CitationConfig, n_sources: int, code_of: Mapping[str, Sequence[int]]
) -> tuple[float, np.ndarray, float]:
    """Scores a passage must reach to still matter: to enter the full citation list, to
    pass a source that already has its citations, to enter the full support list."""
    full = -np.inf
    caps = np.full(n_sources, -np.inf)
    if cfg.top_k <= 0 or cfg.max_citations_per_source <= 0:
        full = np.inf
    else:
        kept = rank_citations(out.citations, cfg)  # the list as ranked so far
        used: dict[str, int] = {}
        for c in kept:
            used[c.source_id] = used.get(c.source_id, 0) + 1
            if used[c.source_id] == cfg.max_citations_per_source:
                for code in code_of[c.source_id]:
                    caps[code] = c.score
        if len(kept) == cfg.top_k:
            full = kept[-1].score
    support_full = -np.inf
    if cfg.max_retrieval_support <= 0:
        support_full = np.inf
    elif len(out.support) >= cfg.max_retrieval_support:
        support_full = -heapq.nsmallest(cfg.max_retrieval_support, out.support)[-1][0]
    return full, caps, support_full


def bounded_search(
    ctx: SpanContext,
    answer_ids: list[int],
    ps: np.ndarray,
    emb: list[float],
    lexical: list[float],
    coverage: list[float],
    bound: list[float],
    klass: list[int],
    certain: bool,
    out: Outcome,
) -> None:
    """Visit passages best-bound-first and settle each one as cheaply as possible.

    A passage is dropped as soon as the results settled so far keep it out of both
    lists (any order of visits gives the same output, since settled results are exact
    and more results only block more). Support-only passages and passages whose chain
    of matching cells is short get their exact score without the full programme; a
    passage whose exact score is known goes back into the queue with that score, so the
    full Smith-Waterman (needed for the evidence offsets) runs only on the passages
    that end up at the top, in small vectorised batches.
    """
    cfg, corpus = ctx.cfg, ctx.corpus
    m = len(answer_ids)
    floor = cfg.min_answer_coverage
    codes = corpus.source_codes
    source_code = corpus.passage_source[ps].tolist()
    n_sources = len(corpus.sources)

    chains = cfg.weights.evidence_coverage == 0
    positions: dict[int, list[int]] = {}
    for i, t in enumerate(answer_ids):
        positions.setdefault(t, []).append(i)
    verbatim = cfg.mismatch_score < 0 and cfg.gap_score < 0  # the answer verbatim = its first occurrence
    needle = np.asarray(answer_ids, dtype=np.int32).tobytes()

    keep_support = cfg.max_retrieval_support
    floor_heap: list[float] = []
    seen_support = 0
    full, caps, _ = thresholds(out, cfg, n_sources, codes)
    exact = [False] * len(ps)
    tightened = [False] * len(ps)
    weight_per_match = (cfg.weights.alignment + cfg.weights.answer_coverage) / m
    queue = [(-b, k) for k, b in enumerate(bound)]
    heapq.heapify(queue)
    # After a few exact chains, passages without a near pair are settled in bulk.
    far_check = (cfg.match_score, cfg.mismatch_score, cfg.gap_score) == (2, -1, -1)
    chained = 0
    pending: list[int] = []
    batch = 8

    def relevant(k: int, b: float) -> bool:
        nonlocal seen_support
        if klass[k] != SUPPORT and b >= full and b >= caps[source_code[k]]:
            return True
        if klass[k] == CITATION or keep_support <= 0:
            return False
        while seen_support < len(out.support):  # keep the support floor current
            heapq.heappush(floor_heap, -out.support[seen_support][0])
            if len(floor_heap) > keep_support:
                heapq.heappop(floor_heap)
            seen_support += 1
        return len(floor_heap) < keep_support or b >= floor_heap[0]

    def flush() -> None:
        nonlocal full, caps
        todo = [k for k in pending if relevant(k, bound[k])]
        pending.clear()
        if not todo:
            return
        for k, hit in zip(todo, align_candidates(ctx, answer_ids, ps[todo].tolist())):
            settle(ctx, int(ps[k]), hit, answer_ids, lexical[k], emb[k], coverage[k], out)
        full, caps, _ = thresholds(out, cfg, n_sources, codes)

    while queue or pending:
        if not queue or len(pending) >= batch:
            flush()
            batch = 64
            continue
        neg, k = heapq.heappop(queue)
        if not relevant(k, -neg):
            continue
        p = int(ps[k])
        if verbatim and klass[k] != SUPPORT and not exact[k]:
            at = first_occurrence(needle, corpus.passage_tokens(p)) if coverage[k] >= 1.0 else -1
            if at >= 0:
                ctx.alignments += 1
                hit = Hit(
                    cfg.match_score * m,
                    at,
                    at + m,
                    0,
                    m,
                    m,
                    [(at, at + m)] if cfg.multi_span_evidence else [],
                )
                settle(ctx, p, hit, answer_ids, lexical[k], emb[k], coverage[k], out)
                full, caps, _ = thresholds(out, cfg, n_sources, codes)
                continue
        if far_check and not exact[k] and not tightened[k]:
            chained += 1
            if chained > _CHAINS_BEFORE_BULK:
                far_check = False
                queue = _settle_far_passages(
                    ctx,
                    answer_ids,
                    ps,
                    emb,
                    lexical,
                    coverage,
                    bound,
                    klass,
                    certain,
                    exact,
                    queue + [(neg, k)],
                    out,
                )
                heapq.heapify(queue)
                continue
        if chains and not exact[k] and not tightened[k]:
            found = best_chain(
                positions,
                corpus.passage_tokens(p).tolist(),
                cfg.match_score,
                cfg.mismatch_score,
                cfg.gap_score,
            )
            if found is not None:
                exact[k] = True
                ctx.alignments += 1
                chain = Hit(found[0], 0, 1 if found[0] else 0, 0, 1, found[1])
                scored = score_hit(chain, m, lexical[k], emb[k], cfg)
                if klass[k] == UNKNOWN and certain:
                    cites = (
                        found[0] >= cfg.min_alignment_score
                        and found[0] > 0
                        and coverage[k] > 0.0
                        and (scored.answer_coverage >= floor or coverage[k] >= floor)
                    )
                    klass[k] = CITATION if cites else SUPPORT
                if klass[k] == SUPPORT:
                    if lexical[k] > 0.0 or emb[k] >= cfg.min_embedding_similarity:
                        out.support.append(support_entry(corpus, p, scored.score, lexical[k], emb[k]))
                    continue
                bound[k] = scored.score + EPS
                heapq.heappush(queue, (-bound[k], k))
                continue
        if not exact[k] and not tightened[k]:
            # Too many matching cells for an exact chain: bound the matches by the
            # longest increasing chain instead of the shared-token count.
            tightened[k] = True
            longest = longest_chain(positions, corpus.passage_tokens(p).tolist())
            tighter = (
                weight_per_match * longest
                + cfg.weights.evidence_coverage
                + cfg.weights.lexical * lexical[k]
                + EPS
            )
            if tighter < bound[k]:
                bound[k] = tighter
                heapq.heappush(queue, (-tighter, k))
                continue
        pending.append(k)


_CHAINS_BEFORE_BULK = 24


def _settle_far_passages(
    ctx: SpanContext,
    answer_ids: list[int],
    ps: np.ndarray,
    emb: list[float],
    lexical: list[float],
    coverage: list[float],
    bound: list[float],
    klass: list[int],
    certain: bool,
    exact: list[bool],
    queue: Queue,
    out: Outcome,
) -> Queue:
    """Settle the queued passages that cannot hold two matches, all at once.

    Such a passage aligns to exactly one match (score 2, 1 match, a 1-token span), so
    its score is known. Support-only ones join the support list (only the best few can
    matter, and only those become entries); possible citations go back into the queue
    with their exact score. Returns the new queue.
    """
    cfg, corpus = ctx.cfg, ctx.corpus
    m = len(answer_ids)
    items = np.asarray([k for _, k in queue], dtype=np.int64)
    if not items.size:
        return []
    done = np.asarray(exact, dtype=bool)[items]
    far = ~corpus.near_pairs(ps[items], answer_ids) & ~done
    keep_queue = [(-bound[k], k) for k in items[~far].tolist()]
    far_items = items[far]
    if not far_items.size:
        return keep_queue
    lex = np.asarray(lexical, dtype=np.float64)[far_items]
    em = np.asarray(emb, dtype=np.float64)[far_items]
    cov = np.asarray(coverage, dtype=np.float64)[far_items]
    w = cfg.weights
    normalized = 2 / max(1, 2 * m)
    answer_coverage = 1 / max(1, m)
    value = (
        w.alignment * normalized
        + w.answer_coverage * answer_coverage
        + w.evidence_coverage * 1.0
        + w.lexical * lex
        + w.embedding * np.maximum(0.0, em)
    )
    kind = np.asarray(klass, dtype=np.int8)[far_items]
    if certain:
        floor = cfg.min_answer_coverage
        cites = (cfg.min_alignment_score <= 2) & (cov > 0.0) & ((answer_coverage >= floor) | (cov >= floor))
        kind = np.where(kind == UNKNOWN, np.where(cites, CITATION, SUPPORT), kind)
    for k, v in zip(far_items[kind != SUPPORT].tolist(), value[kind != SUPPORT].tolist()):
        exact[k] = True
        klass[k] = CITATION if certain else klass[k]
        if klass[k] == UNKNOWN:  # not resolvable without the full rules: align it
            exact[k] = False
            keep_queue.append((-bound[k], k))
            continue
        bound[k] = v + EPS
        keep_queue.append((-bound[k], k))
    support = (kind == SUPPORT) & ((lex > 0.0) | (em >= cfg.min_embedding_similarity))
    keep = cfg.max_retrieval_support
    if keep > 0 and support.any():
        chosen = far_items[support]
        passages = ps[chosen]
        base = np.asarray([s.base_offset for s in corpus.sources], dtype=np.int64)
        start = base[corpus.passage_source[passages]] + corpus.passage_starts[passages]
        order = np.lexsort((passages, start, corpus.passage_source_index[passages], -value[support]))[:keep]
        for k, v in zip(chosen[order].tolist(), value[support][order].tolist()):
            exact[k] = True
            out.support.append(support_entry(corpus, int(ps[k]), v, lexical[k], emb[k]))
    return keep_queue


def first_occurrence(needle: bytes, tokens: np.ndarray) -> int:
    """Token index of the first occurrence of the answer's token bytes, or -1."""
    hay = tokens.astype(np.int32, copy=False).tobytes()
    at = hay.find(needle)
    while at >= 0 and at % 4:
        at = hay.find(needle, at + 1)
    return at // 4 if at >= 0 else -1
