"""The validator: text in, positioned findings out.

`check_report` runs the rules on one report value; `Checker` runs a whole file (JSONL,
a JSON array of reports, or one report), places every finding on its token, and adds the
cross-report findings. A `Checker` caches results per report text, so re-checking a file
after one line changed re-runs the rules for that line only (the language server relies
on this).
"""

from __future__ import annotations

import heapq
from bisect import insort_left
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from citelens.check import workers
from citelens.check.file_level import FileLevel, FileLevelCache, grouped, relative_findings
from citelens.check.finding import RELATED, RELATED_AT, Finding, Fix, Related, Severity, finding_order
from citelens.check.fix_context import FixContext
from citelens.check.registry import REPORT_CHECKS, RULES, STRUCTURE_CODES, SUPPORT_CODES, fix_for
from citelens.check.result import FileResult, placed_in_file
from citelens.check.rules.coverage import ReportFacts, check_coverage, report_facts, topic_findings
from citelens.check.rules.documents import DocumentSources, check_documents, document_refs
from citelens.check.rules.support import SupportHook, check_support
from citelens.check.track_spec import TrackSpec
from citelens.check.view import ReportView, TopicInfo
from citelens.source.edits import shift
from citelens.source.json_locate import Locator
from citelens.source.json_nodes import Node, locate
from citelens.source.json_scan import ValueProblem
from citelens.source.json_types import json_type
from citelens.source.run_text import Item, SourceFile, decode, read_source

_PROBLEM_CODES = {
    "duplicate_key": "duplicate_key",
    "nonfinite": "json_syntax",
    "overflow": "json_syntax",
    "surrogate": "encoding",
}


def run_rules(
    value: Any,
    spec: TrackSpec | None,
    request: TopicInfo | None = None,
    topics: Mapping[str, TopicInfo] | None = None,
) -> ReportView:
    """All per-report checks, in the order autojudge-base applies them. `request` is the
    report's topic; or give `topics` and it is looked up by the report's topic id."""
    if not isinstance(value, dict):
        view = ReportView(value={}, spec=spec, request=request)
        view.add("schema", f"a report must be a JSON object, not {json_type(value)}")
        return view
    view = ReportView.build(value, spec, request)
    if request is None and topics and view.topic_id is not None:
        view.request = topics.get(view.topic_id)
    for check in REPORT_CHECKS:  # the rule modules' CHECKS, by stage (check/registry.py)
        if check.needs_spec and spec is None:
            continue
        if check.run(view) is False and check.gate:
            break
    return view


@dataclass(frozen=True)
class Policy:
    """How severe each code is: the spec's smells, then per-code overrides
    (`citelens.toml`; `ignore` drops the code), then `strict`, which makes every code
    that is reported an error. The codes of reading the file are always errors."""

    spec: TrackSpec | None = None
    strict: bool = False
    overrides: Mapping[str, str] = field(default_factory=dict)
    #: code -> its severity here (asked once per finding: thousands of times per run)
    _known: dict[str, Severity | None] = field(default_factory=dict, init=False, compare=False, repr=False)

    def severity(self, code: str) -> Severity | None:
        try:
            return self._known[code]
        except KeyError:
            sev = self._known[code] = self._severity(code)
            return sev

    def _severity(self, code: str) -> Severity | None:
        if code in STRUCTURE_CODES:  # a file that cannot be read: never lowered or hidden
            return "error"
        override = self.overrides.get(code)
        if override == "ignore":
            return None
        if override is None and code in SUPPORT_CODES and not RULES[code].on_by_default:
            return None  # support_unchecked: off unless a severity turns it on
        if self.strict:  # every reported finding an error, whatever a config lowered
            return "error"
        if override is not None:  # a severity: the settings readers let only those and "ignore" in
            return cast(Severity, override)
        if code in SUPPORT_CODES:  # the support verdicts keep their rule's severity under every spec
            return RULES[code].default_severity
        rule = RULES.get(code)
        if rule is not None and rule.default_severity == "info":
            return "info"  # a note (e.g. documents that could not be checked), whatever the spec
        if self.spec is None:
            return "error"
        return self.spec.severity_of(code)

    def apply(self, findings: list[Finding]) -> list[Finding]:
        out = []
        for f in findings:
            sev = self.severity(f.code)
            if sev is not None:
                out.append(f if f.severity == sev else f.with_severity(sev))
        return out


def check_report(
    value: Any, spec: TrackSpec | None = None, request: TopicInfo | None = None, *, strict: bool = False
) -> list[Finding]:
    """Findings for one report value (pointers only; no positions)."""
    return Policy(spec, strict).apply(run_rules(value, spec, request).findings)


@dataclass
class _ItemOutcome:
    findings: list[Finding]  # spans relative to the item start
    facts: ReportFacts | None


class Checker:
    """Checks files for one (spec, topics, policy); reuse it to re-check edited text."""

    def __init__(
        self,
        spec: TrackSpec | None = None,
        topics: Mapping[str, TopicInfo] | None = None,
        *,
        strict: bool = False,
        overrides: Mapping[str, str] | None = None,
        fixes: bool = False,
        cache_size: int = 20000,
        workers: int = 1,
        sources: DocumentSources | None = None,
        support: SupportHook | None = None,
    ):
        self.spec, self.topics, self.fixes = spec, topics, fixes
        self.sources = sources  # document sources: cited ids are looked up (unknown_document)
        self.support = support  # support verdicts and their findings (citelens.support)
        self._support_reports: dict[int, Any] = {}  # item index -> ReportSupport of the file being checked
        self._skip_support = False  # the file's finished support was read back: not judged again
        self.workers = workers  # >1: big files are checked by forked processes (the CLI)
        self.policy = Policy(spec, strict, dict(overrides or {}))
        self._cache: OrderedDict[str, _ItemOutcome] = OrderedDict()
        self._cache_size = cache_size

    # --- entry points ---------------------------------------------------------------
    def check_path(self, path: str | Path) -> FileResult:
        """A file on disk (`-`: standard input). A file that cannot be read is a
        `FileError` naming the path and the cause."""
        from citelens.files import read_bytes

        return self.check_bytes(read_bytes(path), str(path))

    def check_bytes(self, data: bytes, path: str = "<bytes>") -> FileResult:
        text, problems = decode(data)
        # with workers, the reports are decoded where they are checked
        return self.check_source(read_source(text, problems, lazy=self.workers > 1 and not self.fixes), path)

    def check_text(self, text: str, path: str = "<text>") -> FileResult:
        return self.check_source(read_source(text), path)

    def check_source(self, source: SourceFile, path: str) -> FileResult:
        items = source.items
        if self.support is None:
            report_findings, facts = self._collect(source.text, items)
            return self.file_result(source, path, report_findings, facts)
        # an unchanged file's finished support is read back, not rebuilt (support/finished.py);
        # not with the per-report outcome cache, whose outcomes hold support findings
        context = "" if self._cache_size else self._support_context()
        finished = self.support.finished_file(source.text, context) if context else None
        if finished is not None:
            self._skip_support = True
            try:
                report_findings, facts = self._collect(source.text, items)
            finally:
                self._skip_support = False
            result = self.file_result(source, path, report_findings + finished.findings, facts)
            result.support = finished.support
            return result
        items = [item.decoded(source.text) for item in items]  # decoded once, for both passes
        reports = self._prepare_support(items)
        report_findings, facts = self._collect(source.text, items)
        result = self.file_result(source, path, report_findings, facts)
        result.support = self.support.file_support(reports)
        if context:
            found = [f for f in result.findings if f.code in SUPPORT_CODES]
            self.support.remember_file(source.text, context, found, result.support)
        return result

    def _support_context(self) -> str:
        """What shapes a file's support findings besides its text and documents: how its
        reports are read (the spec) and the severities of the support codes."""
        severities = {code: self.policy.severity(code) for code in sorted(SUPPORT_CODES)}
        return f"{self.spec!r}\x00{severities}"

    def _prepare_support(self, items: list[Item]) -> list[Any]:
        """Judge every citation of the file at once (on the support executor, before any
        worker forks), so the per-report rule only reads verdicts; returns each report's."""
        assert self.support is not None
        views, indexes = [], []
        for item in items:
            value = item.value
            if item.syntax is None and isinstance(value, dict):
                views.append(ReportView.build(value, self.spec))
                indexes.append(item.index)
        reports = self.support.prepare(views)
        self._support_reports = dict(zip(indexes, reports))
        return reports

    def file_result(
        self,
        source: SourceFile,
        path: str,
        report_findings: list[Finding],
        facts: list[ReportFacts],
        *,
        presorted: bool = False,
    ) -> FileResult:
        """The file's result from its reports' findings (placed, severities applied) and
        facts: adds the text problems and the cross-report findings, then sorts
        (`presorted`: `report_findings` are in file order already, so only the few
        file-level findings are sorted in)."""
        level = self.file_findings(source, facts)
        starts = [item.start for item in source.items]
        findings = level.whole + [
            placed_in_file(f, starts[k], starts) for k, found in level.reports.items() for f in found
        ]
        findings = sorted_in_slices(findings)
        if presorted:
            findings = merged_in_order(findings, report_findings)
        else:
            findings += report_findings
            findings.sort(key=finding_order)
        return FileResult(path, source.line_index, findings, len(source.items))

    def file_findings(
        self, source: SourceFile, facts: list[ReportFacts], kept: FileLevelCache | None = None
    ) -> FileLevel:
        """The file-level findings (text problems, a syntax error of the whole text, the
        cross-report rules), severities applied: those about the whole file placed, the
        others relative to their report (see file_level.py).

        `kept` is for a caller that re-assembles a file after every edit (`citelens.session`):
        kept across calls, it saves the cross-report rules when no report's facts changed,
        and a report's findings while its text and the texts of the reports they relate to
        are unchanged (the decoded values stand for the texts)."""
        whole = [Finding(p.code, "error", p.message, start=p.start, end=p.end) for p in source.problems]
        if source.syntax is not None:
            whole.append(_syntax(source.syntax.message, source.syntax.offset))
        whole = self.policy.apply(whole)
        if kept is None:
            kept = FileLevelCache()
        if not kept.same_facts(facts):
            kept.found(
                facts,
                self._severities_applied(lambda add: check_coverage(facts, self.spec, self.topics, add)),
            )
        whole += kept.whole
        groups, links = kept.groups, kept.links
        sources = self.sources
        if sources is not None:  # asked on every call: their answers may change
            more, by_report, _ = grouped(
                self._severities_applied(lambda add: check_documents(facts, sources, add))
            )
            whole += more
            if by_report:
                groups = {
                    k: groups.get(k, []) + by_report.get(k, []) for k in groups.keys() | by_report.keys()
                }
        reports = relative_findings(source.text, source.items, kept, groups, _span)
        return FileLevel(sorted_in_slices(whole), reports, links)

    def _severities_applied(
        self, rules: Callable[[Callable[[int | None, Finding], None]], None]
    ) -> list[tuple[int | None, Finding]]:
        """What file-level `rules` add, as (report index or None, finding), severities applied."""
        found: list[tuple[int | None, Finding]] = []
        policy = self.policy

        def add(index: int | None, f: Finding) -> None:
            severity = policy.severity(f.code)
            if severity is not None:
                found.append((index, f if f.severity == severity else f.with_severity(severity)))

        rules(add)
        return found

    # --- one report -----------------------------------------------------------------
    def report_outcome(self, text: str, item: Item) -> tuple[list[Finding], ReportFacts | None]:
        """One report's findings (offsets relative to `item.start`, severities applied)
        and its facts for the cross-report rules (shared with the cache: copy before
        setting `index`). For callers that keep per-report state (`citelens.session`)."""
        # not cached when broken: an array element's syntax error can depend on the text
        # after the element's span, which the cache key does not hold
        outcome = self._item(text, item) if item.syntax is None else self._check_item(text, item)
        return self.policy.apply(outcome.findings), outcome.facts

    def fix_for(self, text: str, item: Item, finding: Finding) -> Fix | None:
        """The fix of one finding of report `item`, with file offsets: the fix that a
        `fixes=True` checker attaches to it, computed for this finding alone."""
        item = item.decoded(text)
        if item.syntax is not None:
            return None
        view = run_rules(item.value, self.spec, topics=self.topics)
        context = FixContext(item.node(text), view, self.topics)
        if finding.code == "duplicate_key":  # placed in the file, with the first key in `data`
            return fix_for(finding, context)
        found = view.findings
        if self.topics and isinstance(item.value, dict):
            found = found + topic_findings(report_facts(0, view), self.spec, self.topics)
        for f in found:
            if (f.code, f.pointer, f.target, f.message) == (
                finding.code,
                finding.pointer,
                finding.target,
                finding.message,
            ):
                return fix_for(f, context)
        return None

    def _collect(self, text: str, items: list[Item]) -> tuple[list[Finding], list[ReportFacts]]:
        """The per-report findings (placed in the file, severities applied) and facts."""
        if self.workers > 1 and not self.fixes and workers.worth_forking(len(items)):
            return workers.forked_collect(self, text, items)
        return self.collect_range(text, items)

    def collect_range(self, text: str, items: list[Item]) -> tuple[list[Finding], list[ReportFacts]]:
        findings: list[Finding] = []
        facts: list[ReportFacts] = []
        for item in items:
            outcome = self._item(text, item)
            findings.extend(_moved(f, item.start) for f in outcome.findings)
            if outcome.facts is not None:  # a cached outcome may be shared by equal lines
                facts.append(
                    replace(outcome.facts, index=item.index)
                    if self._cache_size
                    else _indexed(outcome.facts, item.index)
                )
        return self.policy.apply(findings), facts

    def forget_report(self, report_text: str) -> None:
        """Drop what this checker keeps of one report (its support verdicts changed: a
        model judged it on demand)."""
        self._cache.pop(report_text, None)

    def _item(self, text: str, item: Item) -> _ItemOutcome:
        if not self._cache_size:
            return self._check_item(text, item)
        key = text[item.start : item.end]
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        outcome = self._check_item(text, item)
        self._cache[key] = outcome
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return outcome

    def _check_item(self, text: str, item: Item) -> _ItemOutcome:
        item = item.decoded(text)
        base = item.start
        if item.syntax is not None:
            return _ItemOutcome([_syntax(item.syntax.message, item.syntax.offset - base)], None)
        value = item.value
        view = run_rules(value, self.spec, topics=self.topics)
        if self.support is not None and not self._skip_support and isinstance(value, dict):
            check_support(view, self.support, self._support_reports.pop(item.index, None))
        out: list[Finding] = []
        for p in item.problems:
            finding = Finding(
                _PROBLEM_CODES[p.kind],
                "error",
                _problem_message(p),
                start=p.start,
                end=p.end,
                data={"first_key_delta": p.first_key[0] - p.start}
                if p.kind == "duplicate_key" and p.first_key is not None  # a duplicate has one
                else {},
            )
            out.append(self._with_fix(finding, item.node(text), view, base) if self.fixes else finding)
        out = [f.with_span(f.start - base, f.end - base) for f in out]
        facts = report_facts(0, view) if isinstance(value, dict) else None
        if facts is not None and self.sources is not None:
            facts.doc_refs, facts.embedded = document_refs(view)
        found = view.findings
        if facts is not None and self.topics:
            found = found + topic_findings(facts, self.spec, self.topics)
        if found:
            locator = Locator(text, item.start, unique_keys=True) if item._node is None else None
            for f in found:
                start, end = _span(text, item, f.pointer, f.target, locator)
                if RELATED in f.data:
                    locate_related(
                        f.data,
                        start,
                        lambda r: (
                            _span(text, item, r.pointer, r.target, locator) if r.report is None else None
                        ),
                    )
                if self.fixes:
                    f = self._with_fix(f, item.node(text), view, base)
                out.append(f.with_span(start - base, end - base))
        return _ItemOutcome(out, facts)

    def _with_fix(self, finding: Finding, node: Node, view: ReportView, base: int) -> Finding:
        """The finding with its repair attached (edit offsets relative to `base`)."""
        repair = fix_for(finding, FixContext(node, view, self.topics))
        return replace(finding, fix=shift(repair, -base)) if repair else finding


def locate_related(
    data: dict[str, Any], start: int, span_of: Callable[[Related], tuple[int, int] | None]
) -> None:
    """Put where a finding's related places are (`data[RELATED_AT]`: offsets relative to
    the finding's `start`, so they move with it when its report moves)."""
    located = []
    for r in data[RELATED]:
        span = span_of(r)
        if span is not None:
            located.append((r.message, span[0] - start, span[1] - start))
    data[RELATED_AT] = tuple(located)


#: file-level findings from which they are merged into the reports' in one pass
MERGE_FROM = 64


#: findings sorted by one C call at most (`sorted_in_slices`): a few milliseconds
SORT_SLICE = 4096


def sorted_in_slices(findings: list[Finding], size: int = SORT_SLICE) -> list[Finding]:
    """`sorted(findings, key=finding_order)`, as stable, sorting `size` at a time and merging the
    slices: one `list.sort` of tens of thousands is one C call that holds the GIL for a
    hundred milliseconds or more under load, and an editor's other files wait for it."""
    if len(findings) <= size:
        return sorted(findings, key=finding_order)
    slices = [sorted(findings[i : i + size], key=finding_order) for i in range(0, len(findings), size)]
    return list(heapq.merge(*slices, key=finding_order))


def merged_in_order(few: list[Finding], many: list[Finding]) -> list[Finding]:
    """Two lists in file order merged into one, each of `few` before its equals in `many`
    (as a stable sort of `few + many` puts them). A handful is inserted one by one; more
    are merged in one linear pass (inserting each of 40,000 cross-report findings of a
    50 MB run into 80,000 moved the whole list 40,000 times: seconds of a check worker's
    time, every other thread waiting for the GIL meanwhile). `many` may be reused."""
    if len(few) < MERGE_FROM:
        for f in reversed(few):  # each before its equals, as a stable sort puts it
            insort_left(many, f, key=finding_order)
        return many
    return list(heapq.merge(few, many, key=finding_order))


def _indexed(facts: ReportFacts, index: int) -> ReportFacts:
    facts.index = index  # not cached, so not shared: set in place
    return facts


def _moved(f: Finding, by: int) -> Finding:
    """A cached finding (offsets relative to its report) placed at the report's offset."""
    if f.fix is None:
        return f.with_span(f.start + by, f.end + by)
    return replace(f.with_span(f.start + by, f.end + by), fix=shift(f.fix, by))


def _span(
    text: str, item: Item, pointer: str, target: str, locator: Locator | None = None
) -> tuple[int, int]:
    """Where a finding about `pointer` goes: walked on the text (C scanners; give one
    `locator` per item to share its reads) unless the item's node tree exists already;
    the same span either way (tests/agreement/test_fast_locate.py). An item without a
    node tree came through the fast path, which sends any duplicate key to the
    positioned parser: its keys are unique."""
    if item._node is None:
        span = (locator or Locator(text, item.start, unique_keys=True)).span(pointer, target)
        if span is not None:
            return span
    return locate(item.node(text), pointer, target)


def _syntax(message: str, offset: int) -> Finding:
    return Finding("json_syntax", "error", f"not valid JSON: {message}", start=offset, end=offset + 1)


def _problem_message(p: ValueProblem) -> str:
    if p.kind == "duplicate_key":
        return (
            f"key {p.detail!r} appears twice in this object; JSON readers keep only the last "
            "value, so remove or rename one"
        )
    if p.kind == "surrogate":
        return (
            f"this string holds {p.detail}, half of a UTF-16 surrogate pair with no other half: "
            "not a character, and no UTF-8 writer can write it; remove it or complete the pair"
        )
    if p.kind == "nonfinite":
        return f"{p.detail} is not valid JSON (Python writes it for NaN/inf); use a number or null"
    return f"the number {p.detail} is too large for a 64-bit float; use a smaller number"
