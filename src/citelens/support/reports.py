"""The support picture of one report: each sentence with the verdicts of its citations,
the sentence's collapsed verdict, and the report's counts, groundedness and seed 2's
HallucinationMetrics. Plain data, made by `SupportRun` (run.py) from cached or fresh
verdicts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citelens.support.verdict import SupportVerdict, Verdict

if TYPE_CHECKING:
    from citelens.align.hallucination import HallucinationMetrics
    from citelens.check.finding import Target
    from citelens.check.view import PointerTokens, ReportView

    #: the sentences of one report with their citations (`sentence_pairs`)
    SentencePairs = list[tuple[int, str, PointerTokens, list["CitedPair"]]]

# a sentence's verdict is its best citation's, in this order
_RANK = {Verdict.SUPPORTED: 3, Verdict.PARTIAL: 2, Verdict.UNSUPPORTED: 1, Verdict.UNCHECKED: 0}


@dataclass(frozen=True, slots=True)
class CitedPair:
    """One citation token of one sentence."""

    sentence_index: int
    doc_id: str
    pointer: PointerTokens
    target: Target


@dataclass(frozen=True, slots=True)
class SentenceSupport:
    """A sentence with the verdict of each of its citations, in citation order."""

    index: int
    text: str
    pointer: PointerTokens  # pointer tokens of the sentence's text value
    citations: tuple[CitedPair, ...]
    verdicts: tuple[SupportVerdict, ...]
    #: the best citation verdict, worked out once (counts and shares ask for it often)
    _best: Verdict | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        if self.verdicts:
            best = max((v.verdict for v in self.verdicts), key=_RANK.__getitem__)
            object.__setattr__(self, "_best", best)

    @property
    def verdict(self) -> Verdict | None:
        """The best citation verdict (None: the sentence cites nothing)."""
        return self._best

    @property
    def all_fail(self) -> bool:
        return bool(self.verdicts) and all(v.verdict is Verdict.UNSUPPORTED for v in self.verdicts)


@dataclass
class ReportSupport:
    """The support picture of one report."""

    topic_id: str | None
    sentences: list[SentenceSupport]

    def counts(self) -> Counter[str]:
        c: Counter[str] = Counter()
        for s in self.sentences:
            v = s.verdict
            c[v.value if v is not None else "uncited"] += 1
        return c

    def groundedness(self) -> float:
        """Seed 2's groundedness score of ``hallucination_metrics()`` (the same figure),
        computed without building its models: the text summary needs only this."""
        from citelens.align.groundedness import char_groundedness

        figures = []
        for s in self.sentences:
            verdict = s.verdict
            if verdict is Verdict.UNCHECKED:
                continue
            if verdict is None or verdict is Verdict.UNSUPPORTED:
                figures.append((len(s.text), "unsupported", 0.0))
                continue
            best = max(
                v.score
                for v in s.verdicts
                if v.verdict is not Verdict.UNCHECKED and v.verdict is not Verdict.UNSUPPORTED
            )
            figures.append((len(s.text), verdict.value, best))
        return char_groundedness(figures)

    def hallucination_metrics(self) -> HallucinationMetrics:
        """Seed 2's HallucinationMetrics over the sentences with a verdict (uncited sentences
        count as unsupported, as seed 2 counts spans without citations; unchecked ones are left
        out). A citation's answer_coverage is the judge's score."""
        from citelens.align.hallucination import compute_hallucination_metrics
        from citelens.align.models import AnswerSpan, Citation, SpanCitations

        spans = []
        offset = 0
        for s in self.sentences:
            verdict = s.verdict
            if verdict is Verdict.UNCHECKED:
                continue
            span = AnswerSpan(
                text=s.text, char_start=offset, char_end=offset + len(s.text), sentence_index=s.index
            )
            offset += len(s.text) + 1
            checked = [(c, v) for c, v in zip(s.citations, s.verdicts) if v.verdict is not Verdict.UNCHECKED]
            if verdict is None or verdict is Verdict.UNSUPPORTED:
                spans.append(SpanCitations(answer_span=span, citations=[], status="unsupported"))
                continue
            citations = [
                Citation(
                    score=v.score,
                    source_id=c.doc_id,
                    source_index=k,
                    candidate_index=k,
                    char_start=v.evidence[0].start if v.evidence else 0,
                    char_end=v.evidence[-1].end if v.evidence else 0,
                    evidence=v.best_evidence,
                    components={"answer_coverage": v.score},
                )
                for k, (c, v) in enumerate(checked)
                if v.verdict is not Verdict.UNSUPPORTED
            ]
            spans.append(SpanCitations(answer_span=span, citations=citations, status=verdict.value))
        return compute_hallucination_metrics(spans)


def sentence_pairs(view: ReportView) -> SentencePairs:
    """(index, text, text pointer, citations) of every sentence with a text."""
    out = []
    for i, s in enumerate(view.sentences or []):
        if not isinstance(s, dict) or not isinstance(s.get("text"), str):
            continue
        cited = [CitedPair(i, doc_id, ptr, target) for doc_id, ptr, target in view.cited_ids(i)]
        out.append((i, s["text"], view.sptr(i, "text"), cited))
    return out


__all__ = ["CitedPair", "ReportSupport", "SentenceSupport", "sentence_pairs"]
