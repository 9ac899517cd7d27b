"""Support over whole reports and runs: which (sentence, document) pairs a report has,
their verdicts (cached, computed by an executor), each sentence's collapsed verdict, and
per-report and per-run shares with seed 2's HallucinationMetrics.

``SupportRun.prepare`` judges every pair of a file at once (so the work can spread over
processes or a Ray cluster); ``verdicts_for`` then answers from memory while the checker
places the findings. A pair never prepared (the language server's single report) is
judged on the spot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citelens.support.cache import VerdictCache, settings_fingerprint, text_hash, verdict_key
from citelens.support.documents import embedded_documents
from citelens.support.executor import Progress, run_judgements
from citelens.support.settings import SupportSettings, default_settings
from citelens.support.verdict import SupportVerdict, UncheckedReason, Verdict, unchecked

if TYPE_CHECKING:
    from citelens.align.hallucination import HallucinationMetrics
    from citelens.check.finding import Target
    from citelens.check.view import PointerTokens, ReportView

    #: the sentences of one report with their citations (`sentence_pairs`)
    SentencePairs = list[tuple[int, str, PointerTokens, list["CitedPair"]]]
    #: one sentence as `SupportRun._keyed` lays it out for judging
    KeyedSentence = tuple[int, str, PointerTokens, list["CitedPair"], list[tuple[str, str | None]]]

# a sentence's verdict is its best citation's, in this order
_RANK = {Verdict.SUPPORTED: 3, Verdict.PARTIAL: 2, Verdict.UNSUPPORTED: 1, Verdict.UNCHECKED: 0}

DocumentLookup = Callable[[str, Mapping[str, Any]], str | None]


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

    def shares(self) -> dict[str, float]:
        """Share of sentences supported / partial / unsupported among the judged ones."""
        c = self.counts()
        judged = c["supported"] + c["partial"] + c["unsupported"]
        return {k: (c[k] / judged if judged else 0.0) for k in ("supported", "partial", "unsupported")}

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


@dataclass
class SupportRun:
    """Support judging for one checker: settings, documents, cache and executor."""

    settings: SupportSettings = field(default_factory=default_settings)
    documents: Mapping[str, str] = field(default_factory=dict)  # outside the reports
    cache: VerdictCache = field(default_factory=VerdictCache)
    executor: str = "process"
    lookup: DocumentLookup | None = None  # e.g. a corpus source; tried after the report's own
    progress: Progress | None = None  # called as batches finish (the CLI: a line on a terminal)

    def __post_init__(self) -> None:
        self._fingerprint = settings_fingerprint(self.settings)

    def document(self, doc_id: str, report: Mapping[str, Any], embedded: Mapping[str, str]) -> str | None:
        text = embedded.get(doc_id)
        if text is None:
            text = self.documents.get(doc_id)
        if text is None and self.lookup is not None:
            text = self.lookup(doc_id, report)
        return text

    def _keyed(self, view: ReportView, pairs: SentencePairs | None = None) -> list[KeyedSentence]:
        embedded = embedded_documents(view.value)
        rows = []
        for i, text, ptr, cited in pairs if pairs is not None else sentence_pairs(view):
            keyed = []
            for c in cited:
                doc = self.document(c.doc_id, view.value, embedded)
                key = verdict_key(
                    text, c.doc_id, text_hash(doc) if doc is not None else "-", self._fingerprint
                )
                keyed.append((key, doc))
            rows.append((i, text, ptr, cited, keyed))
        return rows

    def _prefetch(self, views: list[ReportView], pairs: list[SentencePairs]) -> None:
        """Ask the document sources once for every cited document the reports do not carry."""
        prefetch = getattr(self.lookup, "prefetch", None)
        if prefetch is None:
            return
        wanted: dict[str, None] = {}
        for view, report_pairs in zip(views, pairs):
            embedded = embedded_documents(view.value)
            for _, _, _, cited in report_pairs:
                for c in cited:
                    if c.doc_id not in embedded and c.doc_id not in self.documents:
                        wanted[c.doc_id] = None
        if wanted:
            prefetch(list(wanted))

    def prepare(self, views: list[ReportView]) -> list[ReportSupport]:
        """Judge every not-yet-cached pair of these reports at once, on the executor, cache
        the verdicts, and return each report's support."""
        pairs = [sentence_pairs(view) for view in views]
        self._prefetch(views, pairs)
        rows = [self._keyed(view, p) for view, p in zip(views, pairs)]
        todo: dict[str, tuple[str, str | None]] = {}
        for report_rows in rows:
            for _, text, _, _, keyed in report_rows:
                for key, doc in keyed:
                    todo.setdefault(key, (text, doc))
        known = self.cache.get_many(list(todo))
        missing = [k for k in todo if k not in known]
        if missing:
            results = run_judgements(
                [todo[k] for k in missing], self.settings, self.executor, progress=self.progress
            )
            for key, data in zip(missing, results):
                self.cache.put(key, SupportVerdict.from_dict(data))
            self.cache.flush()
        return [self._assemble(view, report_rows) for view, report_rows in zip(views, rows)]

    def add_findings(self, view: ReportView, report: ReportSupport | None = None) -> ReportSupport:
        """Add the support findings of one report (its support, if already assembled, in
        `report`) to ``view.findings``; return its support."""
        from citelens.support.findings import add_support_findings

        if report is None:
            report = self.report(view)
        add_support_findings(view, report)
        return report

    def report(self, view: ReportView) -> ReportSupport:
        """The verdicts of one report (from the cache; judged now if never prepared)."""
        return self._assemble(view, self._keyed(view))

    def _assemble(self, view: ReportView, rows: list[KeyedSentence]) -> ReportSupport:
        memory = self.cache.memory
        sentences = []
        for i, text, ptr, cited, keyed in rows:
            verdicts = []
            for key, doc in keyed:
                hit = memory.get(key)
                if hit is None:
                    hit = self.cache.get_many([key]).get(key)
                if hit is None:  # never prepared (an editor's single report): judge it now
                    from citelens.support.judge import judge_support

                    fresh = judge_support(text, doc, self.settings)
                    hit = SupportVerdict.from_dict(fresh.to_dict())  # the same rounding as a cached one
                    self.cache.put(key, hit)
                verdicts.append(hit)
            sentences.append(SentenceSupport(i, text, ptr, tuple(cited), tuple(verdicts)))
        return ReportSupport(view.topic_id, sentences)


def run_totals(reports: list[ReportSupport]) -> dict[str, Any]:
    """Per-run figures: sentence counts and shares over all reports."""
    c: Counter[str] = Counter()
    for r in reports:
        c.update(r.counts())
    judged = c["supported"] + c["partial"] + c["unsupported"]
    return {
        "reports": len(reports),
        "sentences": sum(c.values()),
        "counts": {k: c[k] for k in ("supported", "partial", "unsupported", "unchecked", "uncited")},
        "shares": {k: (c[k] / judged if judged else 0.0) for k in ("supported", "partial", "unsupported")},
    }


__all__ = [
    "CitedPair",
    "ReportSupport",
    "SentenceSupport",
    "SupportRun",
    "UncheckedReason",
    "run_totals",
    "sentence_pairs",
    "unchecked",
]
