"""Support over whole files: which (sentence, document) pairs the reports have, their
verdicts (cached, computed by an executor), the findings they give, and the finished
support of a whole file (finished.py).

``SupportRun.prepare`` judges every pair of a file at once (so the work can spread over
processes or a Ray cluster); the checker's per-report rule then reads the verdicts from
memory. A pair never prepared (the language server's single report) is judged on the spot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citelens.support.cache import VerdictCache, settings_fingerprint, text_hash, verdict_key
from citelens.support.document_text import embedded_documents
from citelens.support.executor import Progress, run_judgements
from citelens.support.settings import SupportSettings, default_settings

if TYPE_CHECKING:
    from citelens.check.finding import Finding
    from citelens.check.view import PointerTokens, ReportView
    from citelens.support.finished import FinishedFile, FinishedFiles
    from citelens.support.model_judge import Item, ModelBackend, Outcome
    from citelens.support.reports import CitedPair, ReportSupport, SentencePairs
    from citelens.support.summary import FileSupport

    #: one sentence as `SupportRun._keyed` lays it out for judging
    KeyedSentence = tuple[int, str, PointerTokens, list[CitedPair], list[tuple[str, str | None]]]

DocumentLookup = Callable[[str, Mapping[str, Any]], str | None]


@dataclass
class SupportRun:
    """Support judging for one checker: settings, documents, cache and executor."""

    settings: SupportSettings = field(default_factory=default_settings)
    documents: Mapping[str, str] = field(default_factory=dict)  # outside the reports
    cache: VerdictCache = field(default_factory=VerdictCache)
    executor: str = "process"
    lookup: DocumentLookup | None = None  # e.g. a corpus source; tried after the report's own
    progress: Progress | None = None  # called as batches finish (the CLI: a line on a terminal)
    #: a model judge (`llm`, `nli`) over the lexical verdicts; None: the lexical judge only
    model: ModelBackend | None = None
    cascade: bool = False  # only the lexical judge's uncertain band (low tier) goes to the model
    concurrency: int = 4  # model calls at a time
    dry_run: bool = False  # count the model calls and tokens; make none
    #: where model verdicts are kept and looked up (None: `cache`); an editor's run keeps
    #: its lexical verdicts in memory and shares the model's with the CLI's disk cache
    model_cache: VerdictCache | None = None
    #: a model whose verdicts already cached are shown, never called (an editor with a
    #: model set up: what `citelens check --judge llm` or a judge command cached)
    shown_model: ModelBackend | None = None

    def __post_init__(self) -> None:
        self._fingerprint = settings_fingerprint(self.settings)
        #: what a finished file's key holds of the judge (a model's verdicts differ)
        self._judge_key = "lexical" if self.model is None else f"{self.model.fingerprint}:{self.cascade}"
        #: lexical key -> the key of the model's verdict of the same pair
        self._model_keys: dict[str, str] = {}
        #: the model's work so far, over every prepared file (None: no model, or not yet)
        self.outcome: Outcome | None = None
        #: doc id -> hash of the text used ("-": none), for the documents found outside the
        #: reports since the last `prepare`: what a finished file depends on besides its text
        self._outside: dict[str, str] = {}
        self._outside_version: str | None = None  # the sources' version `prepare` read from
        self._finished: FinishedFiles | None = None
        #: lexical keys with no cached verdict of `shown_model`, as of the cache's `stamp`
        self._shown_missing: set[str] = set()
        self._shown_stamp: object = None

    def document(self, doc_id: str, report: Mapping[str, Any], embedded: Mapping[str, str]) -> str | None:
        text = embedded.get(doc_id)
        if text is not None:
            return text
        text = self.documents.get(doc_id)
        if text is None and self.lookup is not None:
            text = self.lookup(doc_id, report)
        self._outside[doc_id] = text_hash(text) if text is not None else "-"
        return text

    def _keyed(self, view: ReportView, pairs: SentencePairs | None = None) -> list[KeyedSentence]:
        embedded = embedded_documents(view.value)
        rows = []
        if pairs is None:
            from citelens.support.reports import sentence_pairs

            pairs = sentence_pairs(view)
        for i, text, ptr, cited in pairs:
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
        from citelens.support.reports import sentence_pairs
        from citelens.support.verdict import SupportVerdict

        pairs = [sentence_pairs(view) for view in views]
        self._outside = {}
        self._prefetch(views, pairs)
        # after the fetch, which may have built a small corpus's index: the state read from
        self._outside_version = self._sources_version()
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
        if self.model is not None:
            self._judge_with_model(rows)
        return [self._assemble(view, report_rows) for view, report_rows in zip(views, rows)]

    def _judge_with_model(self, rows: list[list[KeyedSentence]]) -> None:
        """Send the pairs the model judges (and has not judged yet) to it; a verdict is
        cached as it arrives, so a stopped run resumes."""
        assert self.model is not None
        outcome = self._run_model(self.model, rows, self.cascade, None, self.dry_run, self.progress)
        if self.outcome is None:
            from citelens.support.model_judge import Outcome

            self.outcome = Outcome()
        total = self.outcome
        total.planned += outcome.planned
        total.tokens += outcome.tokens
        total.done += outcome.done
        total.failed += outcome.failed
        total.cancelled = total.cancelled or outcome.cancelled

    def judge_with(
        self,
        backend: ModelBackend,
        views: list[ReportView],
        *,
        cascade: bool = False,
        pointers: set[str] | None = None,
        progress: Progress | None = None,
    ) -> Outcome:
        """On demand (an editor's "Judge this citation / file"): judge these reports'
        citations (only those at `pointers`, JSON pointers of citation tokens, if given)
        with `backend`; from then on this run's verdicts of those pairs are the model's."""
        items = self.model_items(backend, views, cascade=cascade, pointers=pointers)
        return self.call_model(backend, items, progress=progress)

    def model_items(
        self,
        backend: ModelBackend,
        views: list[ReportView],
        *,
        cascade: bool = False,
        pointers: set[str] | None = None,
    ) -> list[Item]:
        """The first half of `judge_with`, which reads the reports: the pairs of these
        reports (at `pointers`, if given) `backend` has not judged yet. From then on this
        run shows the model's verdict of each pair once `call_model` has it."""
        from citelens.support.reports import sentence_pairs

        self.prepare(views)  # the lexical verdicts the model's refine
        rows = [self._keyed(view, sentence_pairs(view)) for view in views]
        return self._model_todo(backend, rows, cascade, pointers)

    def call_model(
        self,
        backend: ModelBackend,
        items: Sequence[Item],
        *,
        dry_run: bool = False,
        progress: Progress | None = None,
    ) -> Outcome:
        """The second half of `judge_with`: the model calls, each verdict cached as it
        arrives (it reads no report, so it may run while an editor edits the file)."""
        from citelens.support.model_judge import run_model

        models = self.models_cache
        return run_model(
            backend,
            items,
            concurrency=self.concurrency,
            dry_run=dry_run,
            keep=models.put,
            flush=models.flush,
            progress=progress,
        )

    def _run_model(
        self,
        backend: ModelBackend,
        rows: list[list[KeyedSentence]],
        cascade: bool,
        pointers: set[str] | None,
        dry_run: bool,
        progress: Progress | None,
    ) -> Outcome:
        todo = self._model_todo(backend, rows, cascade, pointers)
        return self.call_model(backend, todo, dry_run=dry_run, progress=progress)

    def _model_todo(
        self,
        backend: ModelBackend,
        rows: list[list[KeyedSentence]],
        cascade: bool,
        pointers: set[str] | None,
    ) -> list[Item]:
        from citelens.source.json_nodes import pointer_join
        from citelens.support.model_judge import Item, wanted

        chosen: dict[str, Item] = {}
        for report_rows in rows:
            for _, text, _, cited, keyed in report_rows:
                for position, (c, (key, doc)) in enumerate(zip(cited, keyed)):
                    if pointers is not None and pointer_join(*c.pointer) not in pointers:
                        continue
                    lexical = self.cache.memory.get(key)
                    if doc is None or lexical is None or not wanted(lexical, position, backend, cascade):
                        continue
                    model_key = verdict_key(text, c.doc_id, text_hash(doc), backend.fingerprint)
                    self._model_keys[key] = model_key
                    chosen.setdefault(model_key, Item(model_key, text, doc, lexical))
        known = self.models_cache.get_many(list(chosen))
        return [item for k, item in chosen.items() if k not in known]

    def model_state(self) -> tuple[int, int]:
        """What changes when a model's verdict may be shown instead of a lexical one (a pair
        sent to a model, a verdict judged or read from a cache): a report's assembled
        support is kept only while this stays the same."""
        return len(self._model_keys), self.models_cache.writes

    @property
    def models_cache(self) -> VerdictCache:
        return self.model_cache if self.model_cache is not None else self.cache

    def _shown_keys(self, rows: list[KeyedSentence]) -> None:
        """Note the model verdicts of these pairs already cached for `shown_model` (one
        batched lookup), so that they are shown instead of the lexical ones."""
        shown = self.shown_model
        if shown is None:
            return
        stamp = self.models_cache.stamp()
        if stamp != self._shown_stamp:  # the cache file changed: look again for what was missing
            self._shown_stamp = stamp
            self._shown_missing.clear()
        wanted: dict[str, str] = {}
        for _, text, _, cited, keyed in rows:
            for c, (key, doc) in zip(cited, keyed):
                if doc is not None and key not in self._model_keys and key not in self._shown_missing:
                    wanted[verdict_key(text, c.doc_id, text_hash(doc), shown.fingerprint)] = key
        if not wanted:
            return
        found = self.models_cache.get_many(list(wanted))
        for model_key, key in wanted.items():
            if model_key in found:
                self._model_keys[key] = model_key
            else:
                self._shown_missing.add(key)

    def file_support(self, reports: list[ReportSupport]) -> FileSupport:
        from citelens.support.summary import FileSupport

        return FileSupport.of(reports)

    # --- finished files -------------------------------------------------------------
    def _finished_files(self) -> FinishedFiles | None:
        """Kept only beside an on-disk verdict cache (in memory, the verdicts are enough)."""
        if self._finished is None and self.cache.path is not None:
            from citelens.support.finished import FinishedFiles

            self._finished = FinishedFiles(self.cache.connection, self.cache.lock)
        return self._finished

    def finished_file(self, text: str, context: str) -> FinishedFile | None:
        """The finished support of a file with this text, if nothing it came from changed
        (`context`: what else shapes its findings, from the checker)."""
        files = self._finished_files()
        if files is None:
            return None
        from citelens.support.finished import finished_key

        key = finished_key(text, f"{self._fingerprint}\x00{self._judge_key}\x00{context}")
        return files.get(key, self._sources_version(), self._hashes_now)

    def remember_file(self, text: str, context: str, findings: list[Finding], support: FileSupport) -> None:
        """Keep a file's finished support (its support findings, as placed and worded);
        the outside documents are those `prepare` looked up for it."""
        files = self._finished_files()
        if files is None or self.dry_run or (self.outcome is not None and not self.outcome.complete):
            return  # a model run with calls left undone is not finished
        from citelens.support.finished import finished_key

        key = finished_key(text, f"{self._fingerprint}\x00{self._judge_key}\x00{context}")
        files.put(key, self._outside_version, dict(self._outside), findings, support)

    def _sources_version(self) -> str | None:
        """The version of where outside documents come from ("": nowhere; None: it cannot
        tell, so a finished file compares its documents one by one)."""
        if self.documents:
            return None
        if self.lookup is None:
            return ""
        version = getattr(self.lookup, "version", None)
        return version() if version is not None else None

    def _hashes_now(self, doc_ids: Iterable[str]) -> dict[str, str]:
        ids = list(doc_ids)
        prefetch = getattr(self.lookup, "prefetch", None)
        if prefetch is not None:
            prefetch([i for i in ids if i not in self.documents])
        self._outside = {}
        for doc_id in ids:
            self.document(doc_id, {}, {})
        return dict(self._outside)

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
        from citelens.support.reports import ReportSupport, SentenceSupport
        from citelens.support.verdict import SupportVerdict

        memory = self.cache.memory
        self._shown_keys(rows)
        model_memory = self.models_cache.memory
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
                model_key = self._model_keys.get(key)
                if model_key is not None:
                    hit = model_memory.get(model_key, hit)
                verdicts.append(hit)
            sentences.append(SentenceSupport(i, text, ptr, tuple(cited), tuple(verdicts)))
        return ReportSupport(view.topic_id, sentences)
