"""Citations for one answer span: select passages, align the ones that can matter, rank.

The reference aligns every selected passage (up to 400). The result only depends on
the best few citations (``top_k``, per-source caps) and the best few support entries,
so passages are aligned best-bound-first in batches and the rest are skipped once no
remaining passage can enter either list. The bound of a passage's score uses the
shared-token count (matches can never exceed it) and its exact lexical score; a
passage sharing no content word can never become a citation, and one with enough
content words always does (default gate), so most passages are classified before
any alignment. The output is the same as aligning everything.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from citelens.align.config import CitationConfig
from citelens.align.corpus import PreparedCorpus
from citelens.align.evidence import (
    SupportDraft, contains_all, draft_citation, evidence_spans, make_citation, make_support, passes_gate, score_hit,
)
from citelens.align.lexical import content_coverage, match_passages, top_lexical
from citelens.align.smith_waterman import Hit, SmithWatermanAligner, align_many, best_chain, longest_chain
from citelens.align.status import citation_key, evidence_key, rank_citations, span_status
from citelens.align.structured import split_range_dashes

_EPS = 1e-9
_SUPPORT, _UNKNOWN, _CITATION = 0, 1, 2


@dataclass(slots=True)
class SpanContext:
    """What the per-span search needs besides the span: corpus, settings, components."""

    corpus: PreparedCorpus
    cfg: CitationConfig
    tokenizer: object
    aligner: object | None = None  # a custom aligner object, or None for ours
    embedding_index: object | None = None
    stop_ids: frozenset[int] = frozenset()
    has_vocab: bool = True
    alignments: int = 0
    timings: dict = field(default_factory=lambda: {"align_ms": 0.0})


@dataclass(slots=True)
class _Outcome:
    citations: list
    support: list


def _hits(ctx: SpanContext, answer_ids: list[int], passages: list[int], gap: int | None = None) -> list[Hit]:
    corpus, cfg = ctx.corpus, ctx.cfg
    targets = [corpus.passage_tokens(p) for p in passages]
    ctx.alignments += len(passages)
    if ctx.aligner is None or gap is not None:
        return align_many(
            answer_ids, targets, cfg.match_score, cfg.mismatch_score,
            cfg.gap_score if gap is None else gap, with_blocks=cfg.multi_span_evidence,
        )
    if isinstance(ctx.aligner, SmithWatermanAligner):
        return ctx.aligner.hits(answer_ids, targets)
    batch = getattr(ctx.aligner, "align_batch", None)
    lists = [t.tolist() for t in targets]
    raw = batch(answer_ids, lists) if batch is not None else [ctx.aligner.align(answer_ids, t) for t in lists]
    return [
        Hit(a.score, a.token_start, a.token_end, getattr(a, "query_start", 0), getattr(a, "query_end", 0),
            getattr(a, "matches", 0), [tuple(b) for b in getattr(a, "match_blocks", [])])
        for a in raw
    ]


def _trusted(ctx: SpanContext) -> bool:
    return ctx.aligner is None or type(ctx.aligner) is SmithWatermanAligner


def _evaluate(ctx, p, hit, answer_ids, lexical, embedding, coverage, out: _Outcome) -> bool:
    """Turn one alignment into a citation (True) or a support entry (False)."""
    cfg, corpus = ctx.cfg, ctx.corpus
    scored = score_hit(hit, len(answer_ids), lexical, embedding, cfg)
    ok = passes_gate(hit, scored, coverage, cfg)
    if ok and cfg.require_all_answer_tokens_in_evidence and not (_trusted(ctx) and hit.matches == len(answer_ids)):
        ok = contains_all(answer_ids, corpus.passage_tokens(p)[hit.token_start : hit.token_end].tolist())
    spans = evidence_spans(corpus, p, hit, cfg) if ok else None
    if spans is not None and scored.score >= cfg.min_final_score:
        out.citations.append(draft_citation(corpus, p, hit, scored, spans, lexical, embedding))
        return True
    if lexical <= 0.0 and embedding < cfg.min_embedding_similarity:
        return False
    out.support.append(_support_entry(corpus, p, scored.score, lexical, embedding))
    return False


def _support_entry(corpus: PreparedCorpus, p: int, score: float, lexical: float, embedding: float) -> tuple:
    """A support candidate as a tuple that sorts in the reference's support order."""
    source = corpus.sources[corpus.passage_source[p]]
    start = source.base_offset + int(corpus.passage_starts[p])
    return (-float(score), source.source_index, start, p, float(lexical), float(embedding))



def _can_skip(cfg: CitationConfig, ctx: SpanContext) -> bool:
    w = cfg.weights
    return (
        _trusted(ctx)
        and ctx.embedding_index is None
        and ctx.has_vocab
        and cfg.match_score > 0 and cfg.mismatch_score <= 0 and cfg.gap_score <= 0
        and min(w.alignment, w.answer_coverage, w.evidence_coverage, w.lexical, w.embedding) >= 0
    )


def _thresholds(out: _Outcome, cfg: CitationConfig, n_sources: int, code_of) -> tuple[float, np.ndarray, float]:
    """Scores a passage must reach to still matter: to enter the full citation list, to
    pass a source that already has its citations, to enter the full support list."""
    full = -np.inf
    caps = np.full(n_sources, -np.inf)
    if cfg.top_k <= 0 or cfg.max_citations_per_source <= 0:
        full = np.inf
    else:
        used: dict[str, int] = {}
        seen: set = set()
        taken = 0
        for c in sorted(out.citations, key=lambda c: citation_key(c, cfg.prefer_source_order)):
            key = evidence_key(c)
            if key in seen:
                continue
            seen.add(key)
            n = used.get(c.source_id, 0)
            if n >= cfg.max_citations_per_source:
                continue
            used[c.source_id] = n + 1
            if n + 1 == cfg.max_citations_per_source:
                for code in code_of[c.source_id]:
                    caps[code] = c.score
            taken += 1
            if taken == cfg.top_k:
                full = c.score
                break
    support_full = -np.inf
    if cfg.max_retrieval_support <= 0:
        support_full = np.inf
    elif len(out.support) >= cfg.max_retrieval_support:
        support_full = -heapq.nsmallest(cfg.max_retrieval_support, out.support)[-1][0]
    return full, caps, support_full


def search_span(ctx: SpanContext, text: str, answer_ids: list[int], query_vector=None):
    """(ranked citations, ranked support, status) for one answer span."""
    cfg, corpus = ctx.cfg, ctx.corpus
    out = _Outcome([], [])
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
            ps, emb, lexical = ps[: cfg.max_candidates_total], emb[: cfg.max_candidates_total], lexical[: cfg.max_candidates_total]
        if ps.size:
            _align_selected(ctx, text, answer_ids, ps, emb, lexical, lex, out)
    drafts = rank_citations(out.citations, cfg)
    citations = [make_citation(corpus, d) for d in drafts]
    passage = corpus.passage_text(drafts[0].candidate_index) if drafts else ""
    status = span_status(drafts, cfg, text, passage, citations[0].evidence if citations else "")
    support = [] if cfg.max_retrieval_support <= 0 else heapq.nsmallest(cfg.max_retrieval_support, out.support)
    drafts_support = [SupportDraft(-e[0], e[1], e[2], e[3], e[4], e[5]) for e in support]
    return citations, [make_support(corpus, d) for d in drafts_support], status


def _align_selected(ctx, text, answer_ids, ps, emb_arr, lexical_arr, lex, out: _Outcome) -> None:
    cfg, corpus = ctx.cfg, ctx.corpus
    m = len(answer_ids)
    emb = emb_arr.tolist()
    lexical = lexical_arr.tolist()
    coverage = lex.content_coverage[ps].tolist()
    structured = corpus.any_structured and bool(corpus.passage_structured[ps].any())

    if structured or not _can_skip(cfg, ctx):  # align everything, as the reference does
        hits = _hits(ctx, answer_ids, ps.tolist())
        cited = set()
        for k, hit in enumerate(hits):
            if _evaluate(ctx, int(ps[k]), hit, answer_ids, lexical[k], emb[k], coverage[k], out):
                cited.add(int(ps[k]))
        if structured:
            _retry_structured(ctx, text, ps, emb, lexical, cited, out)
        return

    w = cfg.weights
    shared = lex.shared[ps]
    bound = (w.alignment + w.answer_coverage) * shared / m + w.evidence_coverage + w.lexical * lexical_arr + _EPS
    floor = cfg.min_answer_coverage
    certain = (
        cfg.min_alignment_score <= cfg.match_score
        and not cfg.require_all_answer_tokens_in_evidence
        and cfg.min_final_score <= 0.0
    )
    klass = np.full(len(ps), _UNKNOWN, dtype=np.int8)
    cov = lex.content_coverage[ps]
    klass[(cov <= 0.0) | ((cov < floor) & (shared / m < floor))] = _SUPPORT
    if certain:
        klass[(cov > 0.0) & (cov >= floor)] = _CITATION

    _bounded_search(ctx, answer_ids, ps, emb, lexical, coverage, bound.tolist(), klass.tolist(), certain, out)


def _bounded_search(ctx, answer_ids, ps, emb, lexical, coverage, bound, klass, certain, out: _Outcome) -> None:
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
    full, caps, _ = _thresholds(out, cfg, n_sources, codes)
    exact = [False] * len(ps)
    tightened = [False] * len(ps)
    weight_per_match = (cfg.weights.alignment + cfg.weights.answer_coverage) / m
    queue = [(-b, k) for k, b in enumerate(bound)]
    heapq.heapify(queue)
    pending: list[int] = []
    batch = 8

    def relevant(k: int, b: float) -> bool:
        nonlocal seen_support
        if klass[k] != _SUPPORT and b >= full and b >= caps[source_code[k]]:
            return True
        if klass[k] == _CITATION or keep_support <= 0:
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
        for k, hit in zip(todo, _hits(ctx, answer_ids, ps[todo].tolist())):
            _evaluate(ctx, int(ps[k]), hit, answer_ids, lexical[k], emb[k], coverage[k], out)
        full, caps, _ = _thresholds(out, cfg, n_sources, codes)

    while queue or pending:
        if not queue or len(pending) >= batch:
            flush()
            batch = 64
            continue
        neg, k = heapq.heappop(queue)
        if not relevant(k, -neg):
            continue
        p = int(ps[k])
        if verbatim and klass[k] != _SUPPORT and not exact[k]:
            at = _first_occurrence(needle, corpus.passage_tokens(p)) if coverage[k] >= 1.0 else -1
            if at >= 0:
                ctx.alignments += 1
                hit = Hit(cfg.match_score * m, at, at + m, 0, m, m, [(at, at + m)] if cfg.multi_span_evidence else [])
                _evaluate(ctx, p, hit, answer_ids, lexical[k], emb[k], coverage[k], out)
                full, caps, _ = _thresholds(out, cfg, n_sources, codes)
                continue
        if chains and not exact[k]:
            found = best_chain(positions, corpus.passage_tokens(p).tolist(), cfg.match_score, cfg.mismatch_score, cfg.gap_score)
            if found is not None:
                exact[k] = True
                ctx.alignments += 1
                chain = Hit(found[0], 0, 1 if found[0] else 0, 0, 1, found[1])
                scored = score_hit(chain, m, lexical[k], emb[k], cfg)
                if klass[k] == _UNKNOWN and certain:
                    cites = found[0] >= cfg.min_alignment_score and found[0] > 0 and coverage[k] > 0.0 and (
                        scored.answer_coverage >= floor or coverage[k] >= floor)
                    klass[k] = _CITATION if cites else _SUPPORT
                if klass[k] == _SUPPORT:
                    if lexical[k] > 0.0 or emb[k] >= cfg.min_embedding_similarity:
                        out.support.append(_support_entry(corpus, p, scored.score, lexical[k], emb[k]))
                    continue
                bound[k] = scored.score + _EPS
                heapq.heappush(queue, (-bound[k], k))
                continue
        if not exact[k] and not tightened[k]:
            # Too many matching cells for an exact chain: bound the matches by the
            # longest increasing chain instead of the shared-token count.
            tightened[k] = True
            longest = longest_chain(positions, corpus.passage_tokens(p).tolist())
            tighter = weight_per_match * longest + cfg.weights.evidence_coverage + cfg.weights.lexical * lexical[k] + _EPS
            if tighter < bound[k]:
                bound[k] = tighter
                heapq.heappush(queue, (-tighter, k))
                continue
        pending.append(k)


def _first_occurrence(needle: bytes, tokens: np.ndarray) -> int:
    """Token index of the first occurrence of the answer's token bytes, or -1."""
    hay = tokens.astype(np.int32, copy=False).tobytes()
    at = hay.find(needle)
    while at >= 0 and at % 4:
        at = hay.find(needle, at + 1)
    return at // 4 if at >= 0 else -1


def _retry_structured(ctx, text, ps, emb, lexical, cited, out: _Outcome) -> None:
    """Gap-free re-alignment of uncited passages of field:value sources."""
    cfg, corpus = ctx.cfg, ctx.corpus
    if not isinstance(cfg.gap_score, int) or cfg.gap_score >= 0:
        return
    answer_ids = ctx.tokenizer.tokenize(split_range_dashes(text)).token_ids
    if not answer_ids:
        return
    picks = [
        k for k, p in enumerate(ps.tolist())
        if p not in cited and corpus.structured[corpus.passage_source[p]] and corpus.passage_hi[p] > corpus.passage_lo[p]
    ]
    if not picks:
        return
    hits = _hits(ctx, answer_ids, [int(ps[k]) for k in picks], gap=0)
    newly = set()
    for k, hit in zip(picks, hits):
        p = int(ps[k])
        coverage = content_coverage(answer_ids, corpus.passage_tokens(p).tolist(), ctx.stop_ids) if ctx.has_vocab else 0.0
        trial = _Outcome([], [])
        if _evaluate(ctx, p, hit, answer_ids, lexical[k], emb[k], coverage, trial):
            out.citations.extend(trial.citations)
            newly.add(p)
    if newly:
        out.support[:] = [s for s in out.support if s[3] not in newly]
