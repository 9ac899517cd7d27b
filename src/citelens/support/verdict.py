"""What the support judge says about one (report sentence, cited document) pair."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Verdict(str, Enum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    UNCHECKED = "unchecked"


class UncheckedReason(str, Enum):
    DOCUMENT_NOT_AVAILABLE = "document_not_available"
    DIFFERENT_LANGUAGE = "different_language"
    TOO_LITTLE_CONTENT = "too_little_content"
    NUMBERS_ONLY = "numbers_only"
    #: a model judge gave no label it can read, or its endpoint failed after every retry
    NO_LABEL = "no_label"
    JUDGE_FAILED = "judge_failed"


#: who made a verdict: the word matcher, or a model (`llm:<model>`, `nli:<model>`)
LEXICAL = "lexical"
#: how far a verdict can be trusted: "high" (a model's verdict; a lexical "unsupported"
#: with almost nothing of the sentence found) or "low" (the rest of the lexical verdicts:
#: words found or not, meaning not checked); "" for unchecked
HIGH, LOW = "high", "low"


UNCHECKED_TEXT = {
    UncheckedReason.DOCUMENT_NOT_AVAILABLE: "the cited document is not available",
    UncheckedReason.DIFFERENT_LANGUAGE: "the document is in a different language than the sentence",
    UncheckedReason.TOO_LITTLE_CONTENT: "too little content to judge",
    UncheckedReason.NUMBERS_ONLY: "the sentence is numbers only",
    UncheckedReason.NO_LABEL: "the model's answer holds no support label",
    UncheckedReason.JUDGE_FAILED: "the model's endpoint did not answer",
}


@dataclass(frozen=True, slots=True)
class Evidence:
    """A piece of the document: half-open code-point offsets and the text between them."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class SupportVerdict:
    """The judgement of one report sentence against one document.

    ``score`` is the weighted share of the sentence's content terms found in the evidence
    (0..1). ``evidence`` lists the matched places in document order; several passages
    appear when the sentence draws on several places.
    """

    verdict: Verdict
    score: float
    evidence: tuple[Evidence, ...] = ()
    reason: UncheckedReason | None = None
    matched_terms: int = 0
    content_terms: int = 0
    missing_numbers: tuple[str, ...] = ()
    language: str | None = None
    details: dict[str, float] = field(default_factory=dict)
    #: the evidence gives another amount than one of ``missing_numbers`` (so: unsupported)
    other_amount: bool = False
    judge: str = LEXICAL
    tier: str = ""
    #: the sentence's content words not found in the document (as the sentence writes them)
    missing_terms: tuple[str, ...] = ()
    #: clauses of the sentence whose content words the document lacks (partial because of them)
    uncovered_clauses: tuple[str, ...] = ()
    #: a model judge's own answer (its label as it wrote it)
    answer: str | None = None
    #: numbers found in the document, but never with the noun they count ("15 days")
    mismatched_numbers: tuple[str, ...] = ()
    #: the best evidence passage whole (its document sentence, or two), to show marked
    passage: Evidence | None = None
    #: the sentence's words found only as topic words of the document (words it uses
    #: throughout); set when little else of the sentence was found, which is why the
    #: verdict is "unsupported" although these words are there
    topic_terms: tuple[str, ...] = ()

    @property
    def best_evidence(self) -> str:
        """The evidence as one quotable string ("a ... b")."""
        return " ... ".join(e.text for e in self.evidence)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (the shape printed by ``--format json``)."""
        return {
            "verdict": self.verdict.value,
            "score": round(self.score, 4),
            "reason": self.reason.value if self.reason else None,
            "evidence": [{"start": e.start, "end": e.end, "text": e.text} for e in self.evidence],
            "matched_terms": self.matched_terms,
            "content_terms": self.content_terms,
            "missing_numbers": list(self.missing_numbers),
            "language": self.language,
            "other_amount": self.other_amount,
            "judge": self.judge,
            "tier": self.tier,
            "missing_terms": list(self.missing_terms),
            "uncovered_clauses": list(self.uncovered_clauses),
            "answer": self.answer,
            "mismatched_numbers": list(self.mismatched_numbers),
            "passage": (
                {"start": self.passage.start, "end": self.passage.end, "text": self.passage.text}
                if self.passage
                else None
            ),
            "topic_terms": list(self.topic_terms),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SupportVerdict:
        return cls(
            verdict=Verdict(data["verdict"]),
            score=float(data["score"]),
            evidence=tuple(Evidence(e["start"], e["end"], e["text"]) for e in data.get("evidence", ())),
            reason=UncheckedReason(data["reason"]) if data.get("reason") else None,
            matched_terms=int(data.get("matched_terms", 0)),
            content_terms=int(data.get("content_terms", 0)),
            missing_numbers=tuple(data.get("missing_numbers", ())),
            language=data.get("language"),
            other_amount=bool(data.get("other_amount", False)),
            judge=str(data.get("judge", LEXICAL)),
            tier=str(data.get("tier", "")),
            missing_terms=tuple(data.get("missing_terms", ())),
            uncovered_clauses=tuple(data.get("uncovered_clauses", ())),
            answer=data.get("answer"),
            mismatched_numbers=tuple(data.get("mismatched_numbers", ())),
            passage=Evidence(**data["passage"]) if data.get("passage") else None,
            topic_terms=tuple(data.get("topic_terms", ())),
        )


_VERDICTS = {v.value: v for v in Verdict}
_REASONS = {r.value: r for r in UncheckedReason}


def to_row(verdict: SupportVerdict) -> list[Any]:
    """The compact form kept in the on-disk cache: a flat JSON array (a warm re-check
    decodes thousands of them, and arrays decode faster than objects)."""
    flat: list[Any] = []
    for e in verdict.evidence:
        flat += (e.start, e.end, e.text)
    return [
        verdict.verdict.value,
        round(verdict.score, 4),
        verdict.reason.value if verdict.reason else None,
        flat,
        verdict.matched_terms,
        verdict.content_terms,
        list(verdict.missing_numbers),
        verdict.language,
        verdict.other_amount,
        verdict.judge,
        verdict.tier,
        list(verdict.missing_terms),
        list(verdict.uncovered_clauses),
        verdict.answer,
        list(verdict.mismatched_numbers),
        [verdict.passage.start, verdict.passage.end, verdict.passage.text] if verdict.passage else None,
        list(verdict.topic_terms),
    ]


def from_row(row: list[Any]) -> SupportVerdict:
    """The inverse of ``to_row``."""
    (
        verdict,
        score,
        reason,
        flat,
        matched,
        content,
        missing,
        language,
        other_amount,
        judge,
        tier,
        missing_terms,
        clauses,
        answer,
        mismatched,
        passage,
        topic_terms,
    ) = row
    return SupportVerdict(
        _VERDICTS[verdict],
        score,
        tuple(Evidence(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)),
        _REASONS[reason] if reason else None,
        matched,
        content,
        tuple(missing),
        language,
        other_amount=other_amount,
        judge=judge,
        tier=tier,
        missing_terms=tuple(missing_terms),
        uncovered_clauses=tuple(clauses),
        answer=answer,
        mismatched_numbers=tuple(mismatched),
        passage=Evidence(*passage) if passage else None,
        topic_terms=tuple(topic_terms),
    )


def unchecked(reason: UncheckedReason, language: str | None = None, judge: str = LEXICAL) -> SupportVerdict:
    return SupportVerdict(Verdict.UNCHECKED, 0.0, reason=reason, language=language, judge=judge)
