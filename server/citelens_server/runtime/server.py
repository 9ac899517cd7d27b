"""`CiteLensServer`: the state an editor connection holds, and the publishing of results.

State: the session `Workspace` (documents, settings, checkers), the editor-only settings,
the negotiated position encoding, the debouncer, the checks in workers, the pull
bookkeeping and the caches (each bounded). All of it lives on the instance: two servers
in one process share nothing. Feature handlers are plain functions in `features/`,
registered by `citelens_server.app`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from citelens import __version__
from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.lsp.capabilities import supports
from citelens_server.lsp.diagnostics import SOURCE, DiagnosticsJson, DocLinks, JsonArray, publish_parts
from citelens_server.lsp.edits import workspace_edit
from citelens_server.lsp.positions import Encoding, offset_at
from citelens_server.lsp.uris import uri_path
from citelens_server.runtime.checks import BackgroundChecks, Checked
from citelens_server.runtime.debounce import Debouncer
from citelens_server.runtime.editor_settings import EditorSettings
from citelens_server.runtime.lazy_session import LazySession
from citelens_server.runtime.problems import ErrorLog, Problem
from citelens_server.runtime.protocol import CiteLensProtocol
from citelens_server.runtime.support_first import SupportFirst
from citelens_server.runtime.workspace_runs import WorkspaceRuns

if TYPE_CHECKING:
    from citelens.session import Edit, FileResult, OpenDocument, Workspace
    from citelens.session.spec_choice import TrackGuess
    from citelens.source.line_index import LineIndex
    from citelens_server.lsp.json_text import Json
    from citelens_server.runtime.early_check import EarlyStart
    from citelens_server.runtime.logs import ClientLogHandler

log = logging.getLogger("citelens_server")

#: file names whose documents are checked besides the configured `files` globs
REPORT_SUFFIXES = (".jsonl", ".json")
#: track guesses kept (one per document version and settings generation)
RANKINGS_KEPT = 8
#: (method, options, handler) of one LSP feature, as `features/` modules list them
Feature = tuple[str, Any, Callable[..., Any]]

__all__ = ["REPORT_SUFFIXES", "SETTINGS_ERRORS", "CiteLensServer", "Feature", "uri_path"]


class CiteLensServer(LanguageServer):
    protocol: CiteLensProtocol

    def __init__(self) -> None:
        super().__init__("citelens", __version__, protocol_cls=CiteLensProtocol, max_workers=2)
        self.lazy_session = LazySession()  # planned in `initialize`, made after its answer
        self.editor = EditorSettings()
        self.encoding: Encoding = "utf-16"
        self.pull = False  # the client pulls diagnostics (textDocument/diagnostic)
        self.generation = 0  # bumped when settings change: pull result ids go stale
        self.debouncer = Debouncer()
        self.checks = BackgroundChecks(self)
        self.runs = WorkspaceRuns()  # the workspace's run files (workspace_pull.py)
        self.published: dict[str, int | None] = {}  # uri -> version last published
        self.rendered: dict[str, DiagnosticsJson] = {}  # uri -> its diagnostics' JSON
        self.folders: list[Path] = []
        self.open_reports: set[str] = set()  # uris of open documents that are checked
        self.log_handler: ClientLogHandler | None = None  # set by __main__
        #: report uri -> the settings, spec or topics file whose problem is shown on it
        self.settings_problem_on: dict[str, str] = {}
        self._logged: set[str] = set()
        self.errors = ErrorLog()  # internal errors, logged once per cause
        self.links = DocLinks()  # each rule's documentation link
        self.support = SupportFirst()  # large support checks run first, with progress
        self.progress_tokens = itertools.count(1)
        #: uri -> whether a save came while its on-save model judging ran (features/judging.py)
        self.judging_on_save: dict[str, bool] = {}
        #: (uri, version, generation) -> the engine's spec ranking of that version
        #: the track each open document looks like (features/spec_actions.py), per version
        self.track_guesses: OrderedDict[tuple[str, int | None, int], TrackGuess | None] = OrderedDict()
        #: the last hover answered and what it was answered from (features/hover.py)
        self.last_hover: tuple[tuple[Any, ...], FileResult, Json] | None = None
        #: (sentence, evidence passages) -> the passages with the sentence's words marked
        self.marks: OrderedDict[tuple[str, tuple[str, ...]], str] = OrderedDict()
        #: features registered only for clients that pull diagnostics (set by app.py)
        self.pull_features: list[Feature] = []
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def session(self) -> Workspace:
        """The session's workspace (None before `initialize`; made on first use after it,
        see lazy_session.py)."""
        return self.lazy_session.get()  # type: ignore[return-value]

    @session.setter
    def session(self, workspace: Workspace) -> None:
        self.lazy_session.set(workspace)

    def adopt(self, start: EarlyStart | None) -> None:
        """Take over what was made before the server loaded (early_check.py): the session,
        and the document checked and published, which `checks.open` adopts."""
        if start is None:
            return
        if start.workspace is not None:
            self.lazy_session.set(start.workspace)
        if start.checked is not None:
            self.links = start.checked.links
            self.checks.early = start.checked

    def set_editor(self, settings: EditorSettings) -> None:
        self.editor = settings
        if self.log_handler is not None:
            from citelens_server.runtime.logs import set_trace

            set_trace(self.log_handler, settings.trace)

    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """Serve over stdio, reading and writing off the event loop (runtime/stdio.py)."""
        import sys

        from citelens_server.runtime.stdio import serve

        serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def add_features(self, features: Iterable[Feature]) -> None:
        """Register plain handler functions (a feature module's `FEATURES`)."""
        for method, options, handler in features:
            self.feature(method, options)(handler)

    # --- documents --------------------------------------------------------------
    def document(self, uri: str) -> OpenDocument | None:
        """The session's open document for `uri`, or None."""
        return None if self.session is None else self.session.get(uri)

    def document_at(self, params: Any) -> tuple[OpenDocument, int] | None:
        """The open document a positional request names and the code-point offset of its
        position (None: the document is not open)."""
        doc = self.document(params.text_document.uri)
        if doc is None:
            return None
        position = params.position
        return doc, offset_at(doc.line_index, position.line, position.character, self.encoding)

    def workspace_edit(self, doc: OpenDocument, edits: Iterable[Edit]) -> types.WorkspaceEdit:
        """One undoable edit of the document, versioned when the client takes that."""
        versioned = supports(self.client_capabilities, "workspace.workspace_edit.document_changes")
        return workspace_edit(doc.uri, doc.version, doc.line_index, edits, self.encoding, versioned=versioned)

    def problem(self, doc: OpenDocument) -> Problem | None:
        """Why the current version of `doc` could not be checked, if its check failed:
        requests about it are then answered from what is known, not by checking again."""
        return self.checks.problem_for(doc)

    def is_report_file(self, uri: str, text: str | None = None) -> bool:
        """Whether the document is a run (`text`: its content, which tells a topics or
        corpus file apart): the engine's answer, as for `citelens check`."""
        from citelens_server.runtime.run_detection import is_run_document

        return is_run_document(self, uri, text)

    # --- diagnostics --------------------------------------------------------------
    def request_check(self, uri: str, *, now: bool = False) -> None:
        """Check `uri` after the debounce delay (a newer request replaces this one)."""
        if self.pull:
            return  # the client asks when it wants them
        from citelens_server.runtime.support_first import judge_first

        if judge_first(self, uri):
            return  # a large support check runs first, with progress; it asks for the check
        delay = 0.0 if now else self.editor.debounce_ms / 1000.0
        self.debouncer.schedule(uri, delay, self.publish)

    def publish(self, uri: str) -> None:
        """Check `uri` in a worker; its findings are pushed when they are still current."""
        self.checks.start(uri)

    def deliver(self, uri: str, checked: Checked) -> None:
        """Push a worker's result (the caller made sure it is for the current version)."""
        if self.pull:
            return  # kept in `checks.latest` for the client's next pull
        diagnostics: JsonArray | str = checked.diagnostics or "[]"
        if checked.problem is not None:
            diagnostics = self.settings_problem(checked.doc, checked.problem, uri)
        else:
            self.withdraw_settings_problem(uri)
        version = checked.version
        self.published[uri] = version
        self.protocol.send_body(*publish_parts(uri, version, diagnostics))

    def diagnostics_json(self, doc: OpenDocument, uri: str | None = None) -> JsonArray:
        """The JSON array of the document's current diagnostics (`uri`: the client's name
        of the document, for related locations in it)."""
        return self.render(doc.uri, doc.result, doc.line_index, uri or doc.uri)

    def render(self, key: str, result: FileResult, index: LineIndex, uri: str) -> JsonArray:
        """The JSON array of a result's diagnostics (`key`: the session's URI of its
        document, whose earlier diagnostics' JSON is reused): needs no document, so a
        worker can render one version while the loop edits the next."""
        rendered = self.rendered.get(key)
        if rendered is None:
            rendered = self.rendered[key] = DiagnosticsJson(self.links)
        return rendered.render_result(result, index, self.encoding, uri)

    def settings_problem(self, doc: OpenDocument, problem: Problem, uri: str | None = None) -> str:
        """A settings, spec or topics file that cannot be used: logged, shown on the file
        that has the problem (at its line, when known) and on the report file at its start.
        An internal error is shown on the report file only (its traceback is logged once)."""
        uri = uri or doc.uri
        message = problem.message
        if problem.kind == "settings" and message not in self._logged:
            self._logged.add(message)
            log.warning("%s: %s", doc.uri, message)
        where, line = problem.path, problem.line or 0
        if where is not None and not self.pull and Path(where).is_file():
            diag = {
                "range": {
                    "start": {"line": max(line - 1, 0), "character": 0},
                    "end": {"line": max(line - 1, 0), "character": 1000},
                },
                "severity": 1,
                "code": "settings",
                "source": SOURCE,
                "message": problem.reason or message,
            }
            settings_uri = Path(where).resolve().as_uri()
            if self.settings_problem_on.get(uri) != settings_uri:
                self.withdraw_settings_problem(uri)
            self.protocol.notify_json(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, {"uri": settings_uri, "diagnostics": [diag]}
            )
            self.settings_problem_on[uri] = settings_uri
        first = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
        return json.dumps(
            [{**first, "severity": 1, "code": "settings", "source": SOURCE, "message": message}]
        )

    def withdraw_settings_problem(self, uri: str) -> None:
        """The report `uri` no longer shows a settings problem: the diagnostic on the settings
        file goes when no other open report still has that problem. Withdrawn only once a
        re-check says so, so a settings change never makes it flicker off and on again."""
        settings_uri = self.settings_problem_on.pop(uri, None)
        if settings_uri is not None and settings_uri not in self.settings_problem_on.values():
            self.protocol.notify_json(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, {"uri": settings_uri, "diagnostics": []}
            )

    def clear(self, uri: str) -> None:
        self.debouncer.cancel(uri)
        self.withdraw_settings_problem(uri)
        self.checks.forget(uri)
        self.published.pop(uri, None)
        self.rendered.pop(uri, None)
        self.support.forget(uri)
        for key in [k for k in self.track_guesses if k[0] == uri]:
            del self.track_guesses[key]
        path = uri_path(uri)
        if uri in self.runs.pushed and path is not None:  # the workspace check's findings on disk again
            from citelens_server.runtime.workspace_runs import republish_from_disk

            self.keep(asyncio.ensure_future(republish_from_disk(self, uri, path)))
        elif not self.pull:
            self.protocol.notify_json(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, {"uri": uri, "diagnostics": []}
            )

    def recheck_all(self) -> None:
        """Settings, spec or topics changed: every open report file is checked again."""
        self.generation += 1
        self.runs.wake()
        self._logged.clear()
        self.errors.forget()
        for uri in [u for u in self.settings_problem_on if u not in self.open_reports]:
            self.withdraw_settings_problem(uri)  # nothing will re-check it
        if self.pull:
            if supports(self.client_capabilities, "workspace.diagnostics.refresh_support"):
                self.workspace_diagnostic_refresh(None)
            return
        for uri in list(self.open_uris()):
            self.request_check(uri, now=True)

    def keep(self, task: asyncio.Future[None]) -> None:
        """Hold a background task until it is done (the loop keeps only weak references)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def open_uris(self) -> list[str]:
        return list(self.open_reports)

    # --- errors -------------------------------------------------------------------
    def report_server_error(self, error: Exception, source: Any) -> None:
        """Log, never a popup: a handler error on every keystroke must not toast, nor
        fill the log (each cause once)."""
        self.errors.error(f"internal error ({getattr(source, '__name__', source)})", error)
