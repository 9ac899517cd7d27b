"""`OpenDocument`: one run file as an editor holds it (text, version), checked
incrementally, with lookups by offset, fixes on demand and conversion as edits."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citelens.check.file_level import FileLevelCache
from citelens.check.finding import Finding, Fix, finding_order
from citelens.check.result import FileResult, PlacedOnRead
from citelens.check.rules.coverage import ReportFacts
from citelens.session.assembly import Merged
from citelens.session.changes import TextChange
from citelens.session.conversion import ConversionResult, convert_items
from citelens.session.lookup import CitationInfo, NodeInfo, SentenceInfo, node_at, sentences
from citelens.session.reports import Outcome, Reports
from citelens.source.json_nodes import Node
from citelens.source.line_index import LineIndex
from citelens.source.run_text import Item, TextProblem

if TYPE_CHECKING:
    from citelens.check.engine import Checker
    from citelens.config.settings import Settings
    from citelens.fixes.apply import FixOutcome
    from citelens.session.workspace import Workspace
    from citelens.specs.model import TrackSpec
    from citelens.support.reports import ReportSupport
    from citelens.support.run import SupportRun
    from citelens.support.verdict import SupportVerdict

#: how often (in reports) a checking `result` tells `OpenDocument.progress`
PROGRESS_EVERY = 100


#: reports whose support `support_at` keeps (a hover asks again, and for each citation)
SUPPORT_KEPT = 64


class OpenDocument:
    """A document's text and version, its reports kept across edits, and the checked
    result of the current version (computed on first use, then cached)."""

    def __init__(
        self,
        workspace: Workspace,
        uri: str,
        path: Path | None,
        text: str,
        version: int | None = None,
        *,
        problems: list[TextProblem] | None = None,
    ) -> None:
        self.workspace, self.uri, self.path, self.version = workspace, uri, path, version
        self._reports = Reports(text, problems)
        self._result: FileResult | None = None
        self._checker: Checker | None = None
        self._generation = -1
        self._file_level = FileLevelCache()  # what the file-level rules keep across edits
        self._merged = Merged()
        #: id(parsed report) -> (it, the support run, the settings and model state, its support):
        #: kept by `support_at`
        self._support_kept: OrderedDict[
            int, tuple[dict[str, Any], SupportRun, tuple[int, tuple[int, int]], ReportSupport]
        ] = OrderedDict()
        #: (report, its place and number then, the spec, its sentences): kept by `sentences`
        self._sentences_kept: tuple[Item, tuple[int, int], TrackSpec | None, list[SentenceInfo]] | None = None
        #: told (reports checked, reports) every `PROGRESS_EVERY` reports of a `result`
        #: that checks them: an editor's progress bar for a big file's first check
        self.progress: Callable[[int, int], None] | None = None

    # --- text -----------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self._reports.text

    @property
    def line_index(self) -> LineIndex:
        return self._reports.lines

    @property
    def items(self) -> list[Item]:
        """The report items of the current text (JSON lines, array elements, or one)."""
        return self._reports.items

    @property
    def layout(self) -> str:
        return self._reports.layout

    @property
    def problems(self) -> list[TextProblem]:
        """Problems below the JSON level (undecodable bytes of a file opened from disk,
        NUL characters)."""
        return self._reports.problems

    def apply_changes(self, changes: Iterable[TextChange], version: int | None = None) -> None:
        """Apply editor changes in order; only the reports whose text changed are read
        and checked again."""
        for change in changes:
            if change.start is None or change.end is None:
                self._reports = Reports(change.text)
                self._checker = None
            else:
                self._reports.replace(change.start, change.end, change.text)
        self._result = None
        if version is not None:
            self.version = version

    # --- checking -------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.workspace.settings_for(self.path)

    @property
    def checker(self) -> Checker:
        """The checker of this document's settings (re-resolved after a settings change)."""
        generation = self.workspace.generation  # read first: an editor may change settings meanwhile
        if self._checker is None or self._generation != generation:
            checker = self.workspace.checker_for(self.path)
            if checker is not self._checker:
                self._reports.forget_outcomes()
                self._file_level, self._merged = FileLevelCache(), Merged()
                self._result = None
                self._support_kept.clear()
            self._checker, self._generation = checker, generation
        return self._checker

    def forget_result(self) -> None:
        """Check the whole text again on the next `result` (the support verdicts of some
        reports changed outside an edit: see model_judging.py)."""
        self._reports.forget_outcomes()
        self._result = None
        self._support_kept.clear()

    @property
    def checked(self) -> bool:
        """Whether `result` is at hand for the current text and settings (reading it
        costs nothing): an editor decides from this whether to check in the background."""
        return (
            self._result is not None
            and self._checker is not None
            and self._generation == self.workspace.generation
        )

    @property
    def unchecked_reports(self) -> int:
        """How many reports the next `result` checks (their outcome is not kept): an editor
        decides from this whether to check here or in the background."""
        if self._checker is None or self._generation != self.workspace.generation:
            return len(self._reports.items)
        return self._reports.outcomes.count(None)

    @property
    def result(self) -> FileResult:
        """The findings of the current text: exactly what `citelens check` gives for it,
        kept per report and placed in the file when read (`PlacedOnRead`): an edit costs
        the edited reports' check and the file-level rules, not every finding moved."""
        checker = self.checker
        if self._result is not None:
            return self._result
        reports = self._reports
        text, outcomes, items = reports.text, reports.outcomes, reports.items
        progress = self.progress
        # the reports not checked yet (after an edit, the edited ones): each pass over all
        # reports is one comprehension, a keystroke in a big run costs little more
        for n in [n for n, outcome in enumerate(outcomes) if outcome is None]:
            item = items[n]
            if progress is not None and n % PROGRESS_EVERY == 0:
                progress(n, len(items))
            found, fact = checker.report_outcome(text, item)
            found = sorted(found, key=finding_order)  # reports are in file order: so is the whole
            outcomes[n] = Outcome(found, replace(fact, index=item.index) if fact else None)
        done: list[Outcome] = outcomes  # type: ignore[assignment]  # all set above
        if reports.renumbered:  # reports moved by an edit that added or removed reports before them
            for outcome, item in zip(done, items):
                fact = outcome.facts
                if fact is not None and fact.index != item.index:
                    outcome.facts = replace(fact, index=item.index)
            reports.renumbered = False
        facts: list[ReportFacts] = [o.facts for o in done if o.facts is not None]
        starts = [item.start for item in items]
        level = checker.file_findings(reports.source(), facts, self._file_level)
        own: list[Sequence[Finding]] = [o.findings for o in done]
        head, relative = self._merged.lists(starts, own, level)
        self._result = PlacedOnRead(
            str(self.path) if self.path is not None else self.uri,
            reports.lines,
            head=head,
            starts=starts,
            relative=relative,
            links=level.links,
            # each report's findings lie inside its line; in an array, a broken element's
            # syntax error can sit on the next element's first character
            in_order=reports.layout == "jsonl",
        )
        return self._result

    # --- lookups --------------------------------------------------------------------
    def item_at(self, offset: int) -> Item | None:
        """The report whose span holds `offset` (end exclusive)."""
        items = self._reports.items
        k = _bisect(items, offset)
        if k >= 0 and items[k].start <= offset < items[k].end:
            return items[k]
        return None

    def report_node(self, item: Item) -> Node | None:
        """The positioned node tree of one report (None for a report that is not JSON)."""
        if item.syntax is not None:
            return None
        return item.node(self.text)

    def node_at(self, offset: int) -> NodeInfo | None:
        """The innermost JSON node (or key) under `offset`, with its pointer within the
        report and its parents; None between reports."""
        item = self.item_at(offset)
        if item is None:
            return None
        root = self.report_node(item)
        return node_at(root, offset, item.index) if root is not None else None

    def sentences(self, report: int) -> list[SentenceInfo]:
        """The sentences of report number `report` with their citations (not to be
        changed: the last report's are kept, as a hover asks for them four or five times,
        until that report is edited, moved or renumbered, or the spec changes)."""
        items = self._reports.items
        if not 0 <= report < len(items) or items[report].syntax is not None:
            return []
        item, spec = items[report], self.checker.spec
        kept = self._sentences_kept
        if kept is not None and kept[0] is item and kept[1] == (item.start, item.index) and kept[2] is spec:
            return kept[3]
        found = sentences(item.node(self.text), item.value, spec, item.index)
        self._sentences_kept = (item, (item.start, item.index), spec, found)
        return found

    def sentence_at(self, offset: int) -> SentenceInfo | None:
        item = self.item_at(offset)
        if item is None:
            return None
        for s in self.sentences(item.index):
            if s.start <= offset < s.end:
                return s
        return None

    def citation_at(self, offset: int) -> CitationInfo | None:
        sentence = self.sentence_at(offset)
        for c in sentence.citations if sentence is not None else ():
            if c.start <= offset < c.end:
                return c
        return None

    def support_at(self, offset: int) -> tuple[CitationInfo, SupportVerdict] | None:
        """(citation, SupportVerdict) of the citation token under `offset`: the verdict a
        hover shows, the same `check --support` reports for it (None: no citation there)."""
        citation = self.citation_at(offset)
        if citation is None or citation.doc_id is None:
            return None
        item = self._reports.items[citation.report].decoded(self.text)
        if not isinstance(item.value, dict):
            return None
        from citelens.source.json_nodes import pointer_join

        run = self.workspace.support_run_for(self.settings)
        report = self._report_support(item.value, run)
        for sentence in report.sentences:
            for cited, verdict in zip(sentence.citations, sentence.verdicts):
                if pointer_join(*cited.pointer) == citation.pointer:
                    return citation, verdict
        return None

    def _report_support(self, value: dict[str, Any], run: SupportRun) -> ReportSupport:
        """The support of one parsed report, kept for the next hover on it: its verdicts
        depend on its JSON value (an edited report is parsed anew, a moved one keeps its
        value), the run's settings and the cited documents' texts. Not kept: a report
        with a cited document not found (a corpus may answer next time), or one whose
        verdicts may be a model's read from a cache another process writes."""
        from citelens.check.view import ReportView
        from citelens.support.verdict import UncheckedReason

        kept = self._support_kept.get(id(value))
        # what else the verdicts come from: the settings, and the model verdicts at hand
        state = (self.workspace.generation, run.model_state())
        if kept is not None and kept[0] is value and kept[1] is run and kept[2] == state:
            self._support_kept.move_to_end(id(value))
            return kept[3]
        report = run.report(ReportView.build(value, self.checker.spec))
        missing = UncheckedReason.DOCUMENT_NOT_AVAILABLE
        if run.shown_model is None and all(
            v.reason is not missing for sentence in report.sentences for v in sentence.verdicts
        ):
            self._support_kept[id(value)] = (value, run, state, report)
            while len(self._support_kept) > SUPPORT_KEPT:
                self._support_kept.popitem(last=False)
        return report

    # --- fixes ----------------------------------------------------------------------
    def fix_for(self, finding: Finding) -> Fix | None:
        """The fix of one finding of the current result, computed for it alone (the same
        fix `citelens check --fix` would apply for it)."""
        item = self.item_at(finding.start)
        if item is None:
            return None
        return self.checker.fix_for(self.text, item, finding)

    def fix_all(self, code: str | None = None, *, unsafe: bool = False) -> FixOutcome:
        """Every safe fix (and the unsafe ones with `unsafe`), or those of one `code`,
        applied until none is left: the new text, what was applied, and the findings of
        the fixed text. The document itself is not changed."""
        from citelens.fixes.apply import fix_text

        checker = self.workspace.checker_for(self.path, fixes=True)
        name = str(self.path) if self.path is not None else self.uri
        return fix_text(self.text, checker, unsafe=unsafe, path=name, only=code)

    # --- conversion -----------------------------------------------------------------
    def convert_edits(
        self,
        target: str | TrackSpec,
        report: int | None = None,
        *,
        source: str | TrackSpec | None = None,
        topics: Mapping[str, Any] | None = None,
    ) -> ConversionResult:
        """Edits converting the whole file (or report number `report`) to the `target`
        spec, with the positioned notes on what the conversion lost and the reports
        that cannot be converted. `source` says how to read the reports (detected when
        None); `topics` fills a missing narrative with the topic's exact text."""
        from citelens.specs import resolve_spec

        target_spec = resolve_spec(target)
        assert target_spec is not None
        reports = self._reports
        out = convert_items(
            reports.text, reports.layout, reports.items, target_spec, resolve_spec(source), topics, report
        )
        if report is None:
            broken = [Finding(p.code, "error", p.message, start=p.start, end=p.end) for p in reports.problems]
            if reports.syntax is not None:
                at = reports.syntax.offset
                broken.append(Finding("json_syntax", "error", reports.syntax.message, start=at, end=at + 1))
            out.broken = broken + out.broken
        return out


def _bisect(items: list[Item], offset: int) -> int:
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].start <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1
