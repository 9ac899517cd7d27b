"""Checks off the event loop: a document is opened and checked in a worker thread, so a
50 MB run does not hold up a hover or another file's diagnostics.

One check per document is in flight at a time. While it runs, every message about that
document (a change, a hover, a close) waits, and is handled in arrival order when the
check ends, so the engine never sees a document from two threads at once. Edits that
wait (held here, or queued behind the reader) are applied in one batch with one check
request (change_queue.py), and no check starts while more edits are queued (their batch
asks for it), so a burst the server is behind on gets one check, at its end.

A document edited in place since its last check (not replaced whole, not big, same
settings, a few reports to check) is not handed to a worker: its edited reports are
checked on the loop (as a request about it is answered) and only its diagnostics JSON is
made in a worker, from that version's result and line index, which later edits leave as
they are. None of its messages wait for that (`_render`); in a burst, a worker check held
each hover until it ended.

A request about a document whose findings are not computed yet starts its check here and
waits for it (a hover must not check a big file on the event loop), unless an earlier
version was checked and the text was only edited in place since: then it is answered at
once from the current text, the session re-checking just the edited reports, and never
waits for a check of an older text. A result is delivered only if the document is still
open, at the same version, and no change is waiting: an older version is never published
over a newer one, and a file closed during its check gets nothing.

A check that fails (a settings, spec or topics problem, or any exception) is a result
too: it is kept as a plain `Problem`, requests waiting for it are answered from what is
known, and no request starts the same check again; the next edit or settings change
checks once more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.runtime.change_queue import ChangeQueue
from citelens_server.runtime.collector import BIG_CHARS, Collector
from citelens_server.runtime.first_check import first_check_in_processes
from citelens_server.runtime.lazy_session import warm_features
from citelens_server.runtime.notices import show_notices
from citelens_server.runtime.open_progress import PROGRESS_CHARS, OpenProgress
from citelens_server.runtime.problems import Problem

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens_server.lsp.diagnostics import JsonArray
    from citelens_server.runtime.early_check import EarlyCheck
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

#: worker threads: a big file's check must leave one free for the other files
CHECK_WORKERS = 3
#: reports to check again up to which an in-place edit's reports are checked on the loop
#: (a keystroke's batch touches one or two; judged reports, all of them, go to a worker)
HERE_REPORTS = 20
#: notifications after which a held result describes an older text
DOCUMENT_CHANGES = {
    types.TEXT_DOCUMENT_DID_CHANGE,
    types.TEXT_DOCUMENT_DID_CLOSE,
    types.TEXT_DOCUMENT_DID_OPEN,
}


@dataclass(frozen=True)
class Checked:
    """What a worker made of one document version: its diagnostics as JSON text, or the
    problem that kept it from being checked."""

    doc: OpenDocument
    version: int | None
    generation: int
    diagnostics: JsonArray | None
    problem: Problem | None = None


def message_uri(message: Any) -> str | None:
    """The document a client message is about (None: not about one document); a
    command's first argument when it is a string (only an open document's URI makes
    it wait)."""
    params = getattr(message, "params", None)
    document = getattr(params, "text_document", None)
    uri = getattr(document, "uri", None)
    method = getattr(message, "method", None)
    if uri is None and method == types.CODE_ACTION_RESOLVE:
        data = getattr(params, "data", None)
        uri = data.get("uri") if isinstance(data, dict) else None
    elif uri is None and method == types.WORKSPACE_EXECUTE_COMMAND:
        # a command about one document names it first ("Judge this file", "Convert"):
        # sent right after didOpen, it waits for the open in the worker, as a hover does
        arguments = getattr(params, "arguments", None) or []
        uri = arguments[0] if arguments else None
    return uri if isinstance(uri, str) else None


class BackgroundChecks:
    def __init__(self, server: CiteLensServer) -> None:
        self.server = server
        self.executor = ThreadPoolExecutor(CHECK_WORKERS, thread_name_prefix="citelens-check")
        self.running: dict[str, asyncio.Future[Checked | None]] = {}
        #: an in-place edit's diagnostics JSON being made (its messages do not wait: `_render`)
        self.rendering: dict[str, asyncio.Future[Checked]] = {}
        self.held: dict[str, list[Any]] = {}  # uri -> messages waiting for its check
        self.waited: set[int] = set()  # ids of held requests (they wait for one check only)
        self.again: set[str] = set()
        self.latest: dict[str, Checked] = {}  # uri -> the last result made, for pull requests
        self.support_first: set[str] = set()  # opened; their support check runs before the check
        self.collector = Collector()  # paused while a big document is read or checked
        self.big: set[str] = set()  # uris of open big documents (their objects are frozen)
        self.whole: set[str] = set()  # replaced whole since their last check started
        self.features_loaded = False  # the editor features' modules (after the first result)
        self.early: EarlyCheck | None = None  # checked before the server loaded, not adopted yet
        #: edits not applied yet, applied in one batch (change_queue.py)
        self.changes = ChangeQueue(lambda exc: server.report_server_error(exc, "didChange"))

    # --- the gate every client message passes -------------------------------------
    def holds(self, message: Any) -> bool:
        """True if `message` must wait for a check of its document (it is kept and
        handled later, in order). A request waits for one check at most: handled again
        after it, it is answered from the document as it is then (re-checking the edited
        reports on the spot), so a burst of edits, each starting a check, never keeps a
        hover waiting until the burst ends."""
        uri = message_uri(message)
        method = getattr(message, "method", None)
        if method == types.TEXT_DOCUMENT_HOVER and uri is not None and self.changes.pending(uri):
            # its line reads the same before the waiting edits: answered before them (change_queue.py)
            line = getattr(getattr(message.params, "position", None), "line", None)
            keep = uri if isinstance(line, int) and self.changes.keeps_line(uri, line) else None
            self.changes.flush(keep=keep)
        elif method != types.TEXT_DOCUMENT_DID_CHANGE:
            self.changes.flush()  # anything else sees the edits sent before it
        if uri is None:
            return False
        if uri in self.running:  # the engine never sees a document from two threads
            self._hold(uri, message)
            return True
        is_request = getattr(message, "id", None) is not None and getattr(message, "method", None)
        if is_request and id(message) in self.waited:
            self.waited.discard(id(message))
            return False
        if is_request and uri in self.server.open_reports:
            doc = self.server.document(uri)
            if (
                doc is not None
                and not doc.checked
                and self.problem_for(doc) is None
                and not self.edited_in_place(uri, doc)
            ):
                self.start(uri)
                if uri in self.running:
                    self._hold(uri, message)
                    return True
        return False

    def edited_in_place(self, uri: str, doc: OpenDocument) -> bool:
        """Whether `doc` was checked before under the current settings and then only edited
        in place: a request about it is answered at once, on the loop, where the session
        re-checks just the edited reports (milliseconds), instead of waiting for a worker
        check that also renders every diagnostic. A text replaced whole, a big one or a
        settings change: the worker checks it."""
        last = self.latest.get(uri)
        return (
            last is not None
            and last.doc is doc
            and last.generation == self.server.generation
            and uri not in self.whole
            and len(doc.text) < BIG_CHARS
        )

    def hold_change(self, uri: str, params: types.DidChangeTextDocumentParams) -> None:
        """A `didChange` that must wait for the work in flight on its document (a resync)."""
        self._hold(uri, types.DidChangeTextDocumentNotification(params=params))

    def _hold(self, uri: str, message: Any) -> None:
        self.held.setdefault(uri, []).append(message)
        if getattr(message, "id", None) is not None:
            self.waited.add(id(message))

    # --- starting work ------------------------------------------------------------
    def start(self, uri: str) -> None:
        """Check the open document `uri` in a worker (again after the current check, if
        one is running)."""
        self.server.debouncer.cancel(uri)
        if self.changes.pending(uri):
            return  # more edits are queued: their batch asks for the check (one per burst)
        if uri in self.running:
            self.again.add(uri)
            return
        doc = self.server.document(uri)
        if doc is None:
            return
        if self.edited_in_place(uri, doc) and doc.unchecked_reports <= HERE_REPORTS:
            self._render(uri, doc)
            return
        self.whole.discard(uri)
        if len(doc.text) < BIG_CHARS:
            self._run(uri, lambda: self._check(doc, uri))
            return

        def big() -> Checked:
            with self.collector.paused(freeze=True):
                return self._check(doc, uri)

        self._run(uri, big)

    def open(self, uri: str, text: str, version: int | None) -> None:
        """Open a document (reading a big file takes seconds too) and check it, unless its
        support check is big enough to run first with progress (support_progress.py)."""
        early, self.early = self.early, None
        if early is not None and self._adopt(early, uri, text, version):
            return
        session = self.server.session
        bar = None
        if len(text) >= PROGRESS_CHARS:
            from citelens_server.runtime import allocator
            from citelens_server.runtime.progress import Progress

            allocator.tune()  # before its text is copied by the edits to come
            bar = OpenProgress(Progress(self.server, "open"), uri)

        def job() -> Checked | None:
            from citelens_server.runtime.support_first import worth_a_progress_bar

            doc = session.open(uri, text, version)
            if worth_a_progress_bar(doc):
                self.support_first.add(uri)
                return None
            tell = None if bar is None else bar.checked  # the share of reports checked, on the bar
            doc.progress = tell
            try:
                first_check_in_processes(doc, tell)
                return self._check(doc, uri)
            finally:
                doc.progress = None

        if len(text) < BIG_CHARS:
            self._run(uri, job)
        else:
            self.big.add(uri)

            def big() -> Checked | None:
                with self.collector.paused(freeze=True):
                    return job()

            self._run(uri, big)
        if bar is not None:
            self.server.keep(asyncio.ensure_future(bar.show(self.running.get(uri))))

    def _adopt(self, early: EarlyCheck, uri: str, text: str, version: int | None) -> bool:
        """Take the check made before the server loaded as this `didOpen`'s, when it is of
        this very document (it was published then)."""
        server = self.server
        doc = server.document(uri)
        if (early.uri, early.version, early.doc) != (uri, version, doc) or early.text != text:
            return False
        if doc is None or server.generation != 0:
            return False
        self.latest[uri] = Checked(doc, version, server.generation, early.diagnostics)
        server.rendered[doc.uri] = early.rendered
        server.published[uri] = version
        self._first_result()
        show_notices(server)
        log.info("%s: checked before the server loaded", uri)
        return True

    def reopen(self, uri: str, path: Path, version: int | None) -> None:
        """Open the document again from the file on disk (the client's text and the
        server's diverged) and check it; a file that cannot be read is logged once."""
        session = self.server.session

        def job() -> Checked | None:
            doc = session.open_file(path)
            doc.version = version
            return self._check(doc, uri)

        self._run(uri, job)  # no check is in flight: this change was not held for one

    def edit(self, uri: str, apply: Callable[[], None]) -> None:
        """Apply an edit of a big document in a worker, then check it (on the loop,
        rebuilding its 50 MB text and moving every report after the edit held up hovers
        on other files for half a second). Its messages wait meanwhile, as for a check;
        none is in flight (the change was not held for one)."""

        def work() -> None:
            with self.collector.paused(freeze=True):  # its new reports: as for a check
                apply()

        self.again.add(uri)  # `_done` asks for the check
        self._run(uri, work)

    async def run(self, uri: str, job: Callable[[], None]) -> None:
        """Other work on the document `uri` in a worker (the support batch), after the check
        in flight if there is one, holding the document's messages meanwhile as a check does."""
        while (current := self.running.get(uri)) is not None:
            await asyncio.wait([current])  # its failure is logged by `_done`

        def work() -> None:
            job()

        self._run(uri, work)
        await asyncio.wait([self.running[uri]])

    def _render(self, uri: str, doc: OpenDocument) -> None:
        """An in-place edit's check: its few edited reports checked here, on the loop (as a
        request about it is answered), and only the diagnostics JSON made in a worker, from
        this version's result and line index (later edits make new ones and leave these
        as they are). The document's messages do not wait for it: while a burst's edits
        kept arriving, a worker check held each hover until it ended."""
        if uri in self.rendering:
            self.again.add(uri)  # asked for again when this one ends
            return
        server = self.server
        version, generation = doc.version, server.generation
        try:
            result, index = doc.result, doc.line_index
        except Exception:
            self._run(uri, lambda: self._check(doc, uri))  # the worker reports the failure
            return

        def job() -> Checked:
            return Checked(doc, version, generation, server.render(doc.uri, result, index, uri))

        future = asyncio.get_running_loop().run_in_executor(self.executor, job)
        self.rendering[uri] = future
        future.add_done_callback(lambda f: self._rendered(uri, f))

    def _rendered(self, uri: str, future: asyncio.Future[Checked]) -> None:
        """Push a rendered edit if its version is still the document's and no edit waits."""
        self.rendering.pop(uri, None)
        server = self.server
        try:
            checked: Checked | None = future.result()
        except Exception as exc:
            server.errors.error(f"checking {uri}", exc)
            checked = None
        if (
            checked is not None
            and server.document(uri) is checked.doc
            and checked.doc.version == checked.version
            and checked.generation == server.generation
            and not self.changes.pending(uri)
            and uri not in self.running
        ):
            self._delivered(uri, checked)
        if uri in self.again and uri not in self.running:
            self.again.discard(uri)
            server.request_check(uri, now=True)

    def _run(self, uri: str, job: Callable[[], Checked | None]) -> None:
        self.changes.flush(uri)  # the worker gets the document with every edit read so far
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, job)
        self.running[uri] = future
        future.add_done_callback(lambda f: self._done(uri, f))

    def _check(self, doc: OpenDocument, uri: str) -> Checked:
        """In a worker: the findings of the document's current version, rendered."""
        server = self.server
        version, generation = doc.version, server.generation
        try:
            return Checked(doc, version, generation, server.diagnostics_json(doc, uri))
        except SETTINGS_ERRORS as exc:
            return Checked(doc, version, generation, None, Problem.settings(exc))
        except Exception as exc:
            server.errors.error(f"checking {uri}", exc)
            return Checked(doc, version, generation, None, Problem.internal(exc))

    # --- results ------------------------------------------------------------------
    def _done(self, uri: str, future: asyncio.Future[Checked | None]) -> None:
        self.running.pop(uri, None)
        checked: Checked | None = None
        try:
            checked = future.result()
        except Exception as exc:  # opening the document failed: said once per cause
            self.server.errors.error(f"opening {uri}", exc)
        held = self.held.pop(uri, [])
        changed = any(getattr(m, "method", None) in DOCUMENT_CHANGES for m in held)
        server = self.server
        current = checked is not None and server.document(uri) is checked.doc
        if current and not changed and checked is not None and checked.doc.version == checked.version:
            self._delivered(uri, checked)
        show_notices(server)  # e.g. the project file's service that needs `citelens trust`
        for message in held:  # in arrival order; a request may start the next check
            server.protocol.handle_message(message)
        if uri in self.again or uri in self.support_first:
            self.again.discard(uri)
            self.support_first.discard(uri)
            server.request_check(uri, now=True)

    def _delivered(self, uri: str, checked: Checked) -> None:
        """Keep and push a result of the document's current version."""
        self.latest[uri] = checked
        self.server.deliver(uri, checked)
        self._first_result()

    def diagnostics_for(self, doc: OpenDocument) -> Checked | None:
        """The rendered result of `doc` at its current version, if a worker made it."""
        checked = self.latest.get(doc.uri)
        if (
            checked is not None
            and checked.doc is doc
            and checked.version == doc.version
            and checked.generation == self.server.generation
        ):
            return checked
        return None

    def problem_for(self, doc: OpenDocument) -> Problem | None:
        """Why the current version of `doc` could not be checked (None: it was, or it has
        not been tried yet)."""
        checked = self.diagnostics_for(doc)
        return checked.problem if checked is not None else None

    def forget(self, uri: str) -> None:
        self.latest.pop(uri, None)
        self.whole.discard(uri)
        if uri in self.big:
            self.big.discard(uri)
            self.collector.closed_big()

    async def result(self, uri: str) -> None:
        """Wait until the open document `uri` is checked (checking it in a worker)."""
        while True:
            running = self.running.get(uri)
            if running is None:
                doc = self.server.document(uri)
                if doc is None or doc.checked or self.problem_for(doc) is not None:
                    return
                self.start(uri)
                running = self.running.get(uri)
                if running is None:
                    return
            try:
                await asyncio.shield(running)
            except Exception:  # logged by `_done`
                return
            await asyncio.sleep(0)  # let the held messages run first

    def _first_result(self) -> None:
        """After the first diagnostics are out: load what the editor features import."""
        if not self.features_loaded:
            self.features_loaded = True
            asyncio.get_running_loop().run_in_executor(None, warm_features)
