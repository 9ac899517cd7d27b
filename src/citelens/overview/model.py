"""The overview's data: plain dataclasses that become the JSON the page embeds (and that
`citelens report --format json` prints). Positions are 1-based lines and code-point
columns, as `citelens check` prints them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERDICTS = ("supported", "partial", "unsupported", "unchecked")


def group_key(judge: str, tier: str) -> str:
    """The name of a judge-and-tier group of verdicts ("lexical · high"); a verdict with
    no tier (a model judge's "unchecked") is its judge's alone."""
    return f"{judge} · {tier}" if tier else judge


@dataclass(slots=True)
class JudgeTier:
    """The citation verdicts one judge gave in one tier (`key`: `group_key` of the two)."""

    key: str
    judge: str
    tier: str
    verdicts: dict[str, int]


@dataclass(slots=True)
class CodeRow:
    """One finding code of a run: how often, at which severity, what it means."""

    code: str
    severity: str
    count: int
    summary: str
    docs: str | None  # the rule's documentation (a file:// URI, or under --docs-base)


@dataclass(slots=True)
class Counts:
    errors: int = 0
    warnings: int = 0
    infos: int = 0

    def add(self, severity: str) -> None:
        if severity == "error":
            self.errors += 1
        elif severity == "warning":
            self.warnings += 1
        else:
            self.infos += 1


@dataclass(slots=True)
class TopicRow:
    topic_id: str
    reports: int = 0
    findings: Counts = field(default_factory=Counts)
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    #: citation verdicts per judge-and-tier group (keys: `JudgeTier.key` of the run's groups)
    by_judge_tier: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass(slots=True)
class ReportRow:
    """One report of the run, as its table row."""

    number: int  # 1-based, in file order
    line: int
    column: int
    topic_id: str | None
    sentences: int
    findings: Counts = field(default_factory=Counts)
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    groundedness: float | None = None


@dataclass(slots=True)
class Passage:
    """Evidence in a cited document: `parts` alternate plain and matched text
    (`[text, matched]`), cut from the document around the matched places."""

    parts: list[tuple[str, bool]]


@dataclass(slots=True)
class CitationDetail:
    doc_id: str | None
    line: int
    column: int
    verdict: str | None = None
    score: float | None = None
    judge: str | None = None
    tier: str | None = None
    passages: list[Passage] = field(default_factory=list)


@dataclass(slots=True)
class FindingDetail:
    code: str
    severity: str
    message: str
    line: int
    column: int
    sentence: int | None  # index into the report's sentences, when the finding is in one


@dataclass(slots=True)
class SentenceDetail:
    text: str
    line: int
    column: int
    verdict: str | None = None
    citations: list[CitationDetail] = field(default_factory=list)


@dataclass(slots=True)
class ReportDetail:
    sentences: list[SentenceDetail] = field(default_factory=list)
    findings: list[FindingDetail] = field(default_factory=list)


@dataclass(slots=True)
class SupportTotals:
    """The run's support: sentence verdicts, and citation verdicts per judge and per
    judge and tier (a lexical "unsupported" is only a warning in the high tier)."""

    sentences: dict[str, int]
    by_judge: dict[str, dict[str, int]]
    groundedness: float | None  # the mean over the reports judged
    by_judge_tier: list[JudgeTier] = field(default_factory=list)


@dataclass(slots=True)
class RunOverview:
    path: str
    spec: str | None
    spec_description: str
    reports: int
    findings: Counts
    codes: list[CodeRow]
    topics: list[TopicRow]
    rows: list[ReportRow]
    details: list[ReportDetail]
    support: SupportTotals | None = None

    def to_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(slots=True)
class Overview:
    title: str
    version: str
    runs: list[RunOverview]

    def to_data(self) -> dict[str, Any]:
        """The overview as JSON-ready data (nested dataclasses left to `as_json`)."""
        return {"title": self.title, "version": self.version, "runs": self.runs}


def as_json(value: object, **options: Any) -> str:
    """JSON of overview data: the dataclasses field by field (json's C encoder calls back
    only for them, which `dataclasses.asdict` on a 10,000-report run took 18 s to copy)."""
    from citelens.source.json_text import json_dumps

    return json_dumps(value, default=_fields, **options)


def _fields(obj: object) -> dict[str, Any]:
    slots = getattr(obj, "__slots__", None)
    if slots is None:
        raise TypeError(f"{type(obj).__name__} is not overview data")
    return {name: getattr(obj, name) for name in slots}
