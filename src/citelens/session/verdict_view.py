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
    #: who judged and what that judge knows ("lexical: the words are there; meaning not checked")
    judge: str = ""
    #: the best passage whole, the evidence in it between the marks ("": none)
    passage: str = ""
    passage_at: tuple[int, int] | None = None  # its characters in the document
    #: the explanation's other facts, one line each (words not found, numbers, clauses)
    facts: tuple[str, ...] = ()


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
    judge, passage, at, facts = _explained(verdict, mark_open, mark_close)
    return ShownVerdict(
        verdict.verdict.value, float(verdict.score), None, marked, pieces, judge, passage, at, facts
    )


def _explained(
    verdict: SupportVerdict, mark_open: str, mark_close: str
) -> tuple[str, str, tuple[int, int] | None, tuple[str, ...]]:
    """(judge words, marked passage, its span, the other facts), as `--explain` says them."""
    from citelens.support.explain import citation_lines, marked, verdict_words

    data = {"doc_id": "", **verdict.to_dict()}
    words = verdict_words(data).split(" (", 1)[-1].rstrip(")")
    passage, at = "", None
    if verdict.passage is not None:
        p = verdict.passage
        passage = marked(
            {"start": p.start, "text": p.text},
            [{"start": e.start, "end": e.end} for e in verdict.evidence],
            (mark_open, mark_close),
        )
        at = (p.start, p.end)
    facts = tuple(
        line.strip() for line in citation_lines(data)[1:] if not line.strip().startswith(("passage", "open:"))
    )
    return words, passage, at, facts


def marked_evidence(sentence: str, pieces: tuple[str, ...], mark_open: str, mark_close: str) -> str:
    """The passages joined with " … ", each with the sentence's words marked."""
    from citelens.align.marking import answer_words, mark_matches

    words = answer_words(sentence)
    return " … ".join(mark_matches(p, words, lambda t: f"{mark_open}{t}{mark_close}") for p in pieces)
