"""The evidence for one (sentence, document) pair: verdict, score and the passage with the
sentence's words marked. Computed by `citelens.align` once per pair and cached.

The seam for the support judge: when `citelens.support` lands, `judge` is the one place
that changes (its verdict replaces the alignment status).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from citelens_server.markdown import MARK_CLOSE, MARK_OPEN

CACHE_SIZE = 2048


@dataclass(frozen=True)
class Evidence:
    verdict: str  # supported | partial | unsupported
    score: float | None
    marked: str  # the evidence passage, matched words between MARK_OPEN and MARK_CLOSE
    start: int | None  # the passage's span in the document text
    end: int | None


class _Marks:
    """A style for `citelens.cli.align.mark_matches` that leaves sentinels to format later."""

    def matched(self, text: str) -> str:
        return f"{MARK_OPEN}{text}{MARK_CLOSE}"


_cache: OrderedDict[tuple[str, str, str], Evidence] = OrderedDict()


def judge(sentence: str, doc_id: str, text: str) -> Evidence:
    key = (sentence, doc_id, text)
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit
    result = _align(sentence, doc_id, text)
    _cache[key] = result
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return result


def _align(sentence: str, doc_id: str, text: str) -> Evidence:
    from citelens.align import SourceDocument, align_citations
    from citelens.align.tokenizer import normalize_token, token_spans
    from citelens.cli.align import mark_matches

    spans = align_citations(sentence, [SourceDocument(id=doc_id, text=text)])
    if not spans:
        return Evidence("unsupported", None, "", None, None)
    words = {normalize_token(sentence[s:e]) for s, e in token_spans(sentence)}
    # the sentence may be segmented into several spans: keep the best-supported one
    rank = {"supported": 2, "partial": 1, "unsupported": 0}
    best = max(spans, key=lambda sc: (rank.get(sc.status, 0), sc.citations[0].score if sc.citations else 0))
    if not best.citations:
        return Evidence(best.status, None, "", None, None)
    c = best.citations[0]
    pieces = [
        mark_matches(e.evidence, words, _Marks())
        for e in sorted(c.evidence_spans, key=lambda e: e.char_start)
    ]
    marked = " … ".join(pieces) if pieces else mark_matches(c.evidence, words, _Marks())
    return Evidence(best.status, float(c.score), marked, c.char_start, c.char_end)
