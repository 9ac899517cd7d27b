"""A support verdict as an editor shows it: the verdict (or why it is unchecked), the
score, and the evidence passages with the sentence's words marked. The verdict is the
support judge's, the same `citelens check --support` gives."""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.support.verdict import SupportVerdict


@dataclass(frozen=True)
class ShownVerdict:
    verdict: str  # supported | partial | unsupported | unchecked
    score: float | None
    reason: str | None  # why unchecked, for people
    marked: str  # the evidence passages, matched words between the marks
    pieces: tuple[str, ...] = ()  # the evidence passages as the judge gave them


def shown_verdict(
    sentence: str | None,
    verdict: SupportVerdict,
    mark_open: str,
    mark_close: str,
    marks: MutableMapping[tuple[str, tuple[str, ...]], str] | None = None,
) -> ShownVerdict:
    """The view of a `SupportVerdict`; matched words sit between `mark_open` and
    `mark_close` (sentinels a front end formats later). `marks`: marked texts kept by
    (sentence, passages), read and filled here (the caller bounds it)."""
    from citelens.support.verdict import UNCHECKED_TEXT, Verdict

    if verdict.verdict is Verdict.UNCHECKED:
        reason = UNCHECKED_TEXT.get(verdict.reason, None) if verdict.reason else None
        return ShownVerdict("unchecked", None, reason or "not judged", "")
    pieces = tuple(e.text for e in verdict.evidence)
    key = (sentence or "", pieces)
    marked = marks.get(key) if marks is not None else None
    if marked is None:
        marked = marked_evidence(sentence or "", pieces, mark_open, mark_close)
        if marks is not None:
            marks[key] = marked
    return ShownVerdict(verdict.verdict.value, float(verdict.score), None, marked, pieces)


def marked_evidence(sentence: str, pieces: tuple[str, ...], mark_open: str, mark_close: str) -> str:
    """The passages joined with " … ", each with the sentence's words marked."""
    from citelens.align.marking import answer_words, mark_matches

    words = answer_words(sentence)
    return " … ".join(mark_matches(p, words, lambda t: f"{mark_open}{t}{mark_close}") for p in pieces)
