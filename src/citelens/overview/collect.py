"""From a checked run to its overview data: counts per code, topic and report, and each
report's sentences with their verdicts, evidence and findings.

It reads what `citelens check` computed (the `FileResult`, and its `FileSupport` when
citations were judged) and the open document (its reports and sentence positions); it
judges nothing itself, so the page's counts are `citelens check`'s.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from citelens.check.view import ReportView
from citelens.overview.model import (
    VERDICTS,
    CitationDetail,
    CodeRow,
    Counts,
    FindingDetail,
    JudgeTier,
    Passage,
    ReportDetail,
    ReportRow,
    RunOverview,
    SentenceDetail,
    SupportTotals,
    TopicRow,
    group_key,
)

if TYPE_CHECKING:
    from citelens.check.result import FileResult
    from citelens.check.track_spec import TrackSpec
    from citelens.source.run_text import Item


class RunText(Protocol):
    """What the overview reads of an open run (`citelens.session.OpenDocument` is one):
    its text, its report items and their sentences."""

    @property
    def text(self) -> str: ...

    @property
    def items(self) -> list[Item]: ...

    def sentences(self, report: int) -> list[Any]: ...


#: doc id, report -> the document's text (None: not available)
DocumentText = Callable[[str, Mapping[str, Any]], str | None]
#: characters of a document shown around the matched words
PASSAGE_CONTEXT = 80
#: the judge of a verdict that does not name one (CiteLens's lexical support judge)
DEFAULT_JUDGE = "lexical"
#: the topic row of reports without a topic id
NO_TOPIC = "(none)"


def _position(result: FileResult, offset: int) -> tuple[int, int]:
    line, column = result.line_index.position(offset)
    return line + 1, column + 1


def passages(text: str, evidence: list[Mapping[str, Any]], context: int = PASSAGE_CONTEXT) -> list[Passage]:
    """The evidence places of one document, each window of `context` characters around
    nearby places one passage, the matched words marked."""
    spans = sorted(
        (int(e["start"]), int(e["end"]))
        for e in evidence
        if 0 <= int(e["start"]) < int(e["end"]) <= len(text)
    )
    windows: list[list[tuple[int, int]]] = []
    for span in spans:
        if windows and span[0] - windows[-1][-1][1] <= 2 * context:
            windows[-1].append(span)
        else:
            windows.append([span])
    out = []
    for group in windows:
        start, end = max(0, group[0][0] - context), min(len(text), group[-1][1] + context)
        parts: list[tuple[str, bool]] = [("…" if start else "", False)]
        at = start
        for s, e in group:
            s = max(s, at)
            if s > at:
                parts.append((text[at:s], False))
            if e > s:
                parts.append((text[s:e], True))
            at = max(at, e)
        parts.append((text[at:end] + ("…" if end < len(text) else ""), False))
        out.append(Passage([p for p in parts if p[0]]))
    return out


def _evidence_only(evidence: list[Mapping[str, Any]]) -> list[Passage]:
    """Without the document's text: the matched stretches alone."""
    parts: list[tuple[str, bool]] = []
    for e in evidence:
        if parts:
            parts.append((" … ", False))
        parts.append((str(e.get("text", "")), True))
    return [Passage(parts)] if parts else []


def run_overview(
    doc: RunText,
    result: FileResult,
    *,
    spec: TrackSpec | None,
    spec_id: str | None,
    summary: Callable[[str], str],
    docs_link: Callable[[str], str | None],
    document_text: DocumentText | None = None,
) -> RunOverview:
    """The overview of one checked run (`result` is what `citelens check` gave for the
    text of `doc`)."""
    items = doc.items
    starts = [item.start for item in items]
    totals = Counts()
    per_report: list[list[Any]] = [[] for _ in items]
    code_counter: Counter[tuple[str, str]] = Counter()
    for f in result.findings:
        totals.add(f.severity)
        code_counter[f.code, f.severity] += 1
        k = bisect_right(starts, f.start) - 1
        if 0 <= k < len(items) and f.start < items[k].end:
            per_report[k].append(f)
    codes = [
        CodeRow(code, severity, n, summary(code), docs_link(code))
        for (code, severity), n in sorted(code_counter.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    support_docs = result.support.report_documents() if result.support is not None else None
    judged = 0
    rows: list[ReportRow] = []
    details: list[ReportDetail] = []
    by_judge: dict[str, Counter[str]] = {}
    #: (judge, tier) -> verdict counts, for the run and for each topic
    by_tier: dict[tuple[str, str], Counter[str]] = {}
    topic_tiers: dict[str, dict[tuple[str, str], Counter[str]]] = {}
    groundedness: list[float] = []
    sentence_verdicts: Counter[str] = Counter()
    for k, item in enumerate(items):
        line, column = _position(result, item.start)
        value = item.decoded(doc.text).value if item.syntax is None else None
        topic_id = None
        if isinstance(value, dict):
            topic_id = ReportView.build(value, spec).topic_id
        sentences = doc.sentences(k) if isinstance(value, dict) else []
        row = ReportRow(k + 1, line, column, topic_id, len(sentences))
        detail = ReportDetail()
        for s in sentences:
            s_line, s_column = _position(result, s.start)
            detail.sentences.append(
                SentenceDetail(
                    s.text or "",
                    s_line,
                    s_column,
                    citations=[CitationDetail(c.doc_id, *_position(result, c.start)) for c in s.citations],
                )
            )
        support = None
        if support_docs is not None and isinstance(value, dict) and judged < len(support_docs):
            support = support_docs[judged]
            judged += 1
        if support is not None and isinstance(value, dict):
            counts = support["counts"]
            if any(counts.get(v, 0) for v in ("supported", "partial", "unsupported")):
                # a report with nothing judged has no groundedness to average
                row.groundedness = support["hallucination_metrics"]["groundedness_score"]
                groundedness.append(row.groundedness)
            _add_support(detail, support, value, document_text, row, by_judge, sentence_verdicts)
            topic = topic_tiers.setdefault(topic_id or NO_TOPIC, {})
            for cited in _judged_citations(support):
                group = (str(cited.get("judge") or DEFAULT_JUDGE), str(cited.get("tier") or ""))
                by_tier.setdefault(group, Counter())[cited["verdict"]] += 1
                topic.setdefault(group, Counter())[cited["verdict"]] += 1
        sentence_spans = [(s.start, s.end) for s in sentences]
        for f in per_report[k]:
            row.findings.add(f.severity)
            at = next((n for n, (s, e) in enumerate(sentence_spans) if s <= f.start < e), None)
            f_line, f_column = _position(result, f.start)
            detail.findings.append(FindingDetail(f.code, f.severity, f.message, f_line, f_column, at))
        rows.append(row)
        details.append(detail)
    return RunOverview(
        path=result.path,
        spec=spec_id,
        spec_description=spec.description if spec is not None else "no spec: structural checks only",
        reports=result.reports,
        findings=totals,
        codes=codes,
        topics=_topics(rows, topic_tiers),
        rows=rows,
        details=details,
        support=SupportTotals(
            {v: sentence_verdicts.get(v, 0) for v in (*VERDICTS, "uncited")},
            {judge: {v: c.get(v, 0) for v in VERDICTS} for judge, c in sorted(by_judge.items())},
            sum(groundedness) / len(groundedness) if groundedness else None,
            [
                JudgeTier(group_key(judge, tier), judge, tier, _verdicts(c))
                for (judge, tier), c in sorted(by_tier.items())
            ],
        )
        if support_docs is not None
        else None,
    )


def _add_support(
    detail: ReportDetail,
    support: Mapping[str, Any],
    value: Mapping[str, Any],
    document_text: DocumentText | None,
    row: ReportRow,
    by_judge: dict[str, Counter[str]],
    sentence_verdicts: Counter[str],
) -> None:
    """One report's verdicts onto its sentences and citations (sentences by index)."""
    for verdict, n in support["counts"].items():
        if verdict in row.verdicts:
            row.verdicts[verdict] += n
        sentence_verdicts[verdict] += n
    for judged in support["sentences"]:
        index = judged["index"]
        if not 0 <= index < len(detail.sentences):
            continue
        sentence = detail.sentences[index]
        sentence.verdict = judged["verdict"]
        for cited in judged["citations"]:
            judge = str(cited.get("judge") or DEFAULT_JUDGE)
            by_judge.setdefault(judge, Counter())[cited["verdict"]] += 1
            # the judged citations are those that name a document, in order
            c = next(
                (c for c in sentence.citations if c.doc_id == cited["doc_id"] and c.verdict is None), None
            )
            if c is None:
                continue
            c.verdict, c.score, c.judge = cited["verdict"], cited["score"], judge
            c.tier = str(cited.get("tier") or "") or None
            text = document_text(cited["doc_id"], value) if document_text is not None else None
            evidence = cited.get("evidence") or []
            c.passages = passages(text, evidence) if text is not None else _evidence_only(evidence)


def _judged_citations(support: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [cited for judged in support["sentences"] for cited in judged["citations"]]


def _verdicts(counts: Counter[str]) -> dict[str, int]:
    return {v: counts.get(v, 0) for v in VERDICTS}


def _topics(
    rows: list[ReportRow], tiers: Mapping[str, Mapping[tuple[str, str], Counter[str]]]
) -> list[TopicRow]:
    topics: dict[str, TopicRow] = {}
    for row in rows:
        topic = topics.setdefault(row.topic_id or NO_TOPIC, TopicRow(row.topic_id or NO_TOPIC))
        topic.reports += 1
        topic.findings.errors += row.findings.errors
        topic.findings.warnings += row.findings.warnings
        topic.findings.infos += row.findings.infos
        for verdict, n in row.verdicts.items():
            topic.verdicts[verdict] += n
    for name, groups in tiers.items():
        if name in topics:
            topics[name].by_judge_tier = {
                group_key(judge, tier): _verdicts(c) for (judge, tier), c in sorted(groups.items())
            }
    return list(topics.values())
