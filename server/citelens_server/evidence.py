"""A support verdict as a hover shows it: the verdict (or why it is unchecked), the score,
and the evidence passages with the sentence's words marked. The verdict is the support
judge's, the same `citelens check --support` gives; marking is computed once per
(sentence, evidence) and cached.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from citelens_server.markdown import MARK_CLOSE, MARK_OPEN

CACHE_SIZE = 2048


@dataclass(frozen=True)
class Evidence:
    verdict: str  # supported | partial | unsupported | unchecked
    score: float | None
    reason: str | None  # why unchecked, for people
    marked: str  # the evidence passages, matched words between MARK_OPEN and MARK_CLOSE


class _Marks:
    """A style for `citelens.cli.align.mark_matches` that leaves sentinels to format later."""

    def matched(self, text: str) -> str:
        return f"{MARK_OPEN}{text}{MARK_CLOSE}"


_cache: OrderedDict[tuple[str, tuple[str, ...]], str] = OrderedDict()


def shown(sentence: str | None, verdict: Any) -> Evidence:
    """The hover's view of a `SupportVerdict`."""
    from citelens.support.verdict import UNCHECKED_TEXT, Verdict

    if verdict.verdict is Verdict.UNCHECKED:
        reason = UNCHECKED_TEXT.get(verdict.reason, None) if verdict.reason else None
        return Evidence("unchecked", None, reason or "not judged", "")
    pieces = tuple(e.text for e in verdict.evidence)
    return Evidence(verdict.verdict.value, float(verdict.score), None, _marked(sentence or "", pieces))


def _marked(sentence: str, pieces: tuple[str, ...]) -> str:
    key = (sentence, pieces)
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit
    from citelens.align.tokenizer import normalize_token, token_spans
    from citelens.cli.align import mark_matches

    words = {normalize_token(sentence[s:e]) for s, e in token_spans(sentence)}
    marked = " … ".join(mark_matches(p, words, _Marks()) for p in pieces)
    _cache[key] = marked
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return marked
