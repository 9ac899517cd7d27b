"""Ranking and limits of a span's citations, and the span's status."""

from __future__ import annotations

from citelens.align.config import CitationConfig
from citelens.align.contradiction import contradicts
from citelens.align.evidence import CitationDraft, EvidenceKey

#: what citations sort by: score first, then position and source (see ``citation_key``)
CitationOrder = tuple[float, int, int, int, int]


def citation_key(c: CitationDraft, prefer_source_order: bool) -> CitationOrder:
    length = c.char_end - c.char_start
    if prefer_source_order:
        return (-c.score, c.source_index, c.char_start, -length, c.candidate_index)
    return (-c.score, c.char_start, -length, c.source_index, c.candidate_index)


def evidence_key(c: CitationDraft) -> EvidenceKey:
    """Citations with the same source and the same evidence spans are duplicates."""
    return c.evidence_key


def rank_citations(citations: list[CitationDraft], cfg: CitationConfig) -> list[CitationDraft]:
    """Best first; duplicates dropped; at most ``max_citations_per_source`` each; ``top_k`` in all."""
    ordered = sorted(citations, key=lambda c: citation_key(c, cfg.prefer_source_order))
    seen: set[EvidenceKey] = set()
    per_source: dict[str, int] = {}
    out: list[CitationDraft] = []
    for c in ordered:
        key = evidence_key(c)
        if key in seen:
            continue
        seen.add(key)
        used = per_source.get(c.source_id, 0)
        if used >= cfg.max_citations_per_source:
            continue
        per_source[c.source_id] = used + 1
        out.append(c)
        if len(out) >= cfg.top_k:
            break
    return out


def span_status(
    citations: list[CitationDraft],
    cfg: CitationConfig,
    answer_text: str,
    best_passage_text: str,
    best_evidence: str = "",
) -> str:
    """unsupported without citations; partial if the best passage contradicts; else by coverage."""
    if not citations:
        return "unsupported"
    best = citations[0]
    if contradicts(answer_text, best_passage_text or best_evidence):
        return "partial"
    if best.answer_coverage >= cfg.supported_answer_coverage:
        return "supported"
    return "partial"
