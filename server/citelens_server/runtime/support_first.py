"""The support check of a large file (setting `support` on) in a worker thread, with
work-done progress and cancellation, before the file's diagnostics are published.

The engine judges every citation of the file in one batch (`citelens.session.support_batch`);
the verdicts land in the support cache, so the check that follows reads them from memory.
A cancelled batch keeps nothing: the check then judges the citations on the spot.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.runtime.progress import Progress

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

#: citations from which a file's support check runs in the background with progress
MIN_CITATIONS = 200


class SupportFirst:
    """The server's bookkeeping of these batches (one entry per open document)."""

    def __init__(self) -> None:
        self.running: set[str] = set()
        #: uri -> (the document, the support run) whose citations were judged in a batch
        self.judged: dict[str, tuple[weakref.ref[Any], weakref.ref[Any]]] = {}

    def forget(self, uri: str) -> None:
        self.judged.pop(uri, None)


def worth_a_progress_bar(doc: OpenDocument) -> bool:
    """Whether the document's support check is big enough to run first, with progress
    (callable in a worker: engine calls only)."""
    from citelens.session.support_batch import citations_to_judge

    try:
        return doc.checker.support is not None and citations_to_judge(doc) >= MIN_CITATIONS
    except Exception:  # a settings problem: the check that follows reports it
        return False


def judge_first(ls: CiteLensServer, uri: str) -> bool:
    """Before a check of `uri`: start the background support check when the document is
    new (or its settings now judge with another support run) and has many citations. True
    while one runs (its diagnostics are requested when it ends); False: check now."""
    from citelens.session.support_batch import citations_to_judge

    state = ls.support
    if uri in state.running:
        return True
    doc = ls.document(uri)
    if doc is None:
        return False
    try:
        run = doc.checker.support
        if run is None:
            return False
        seen_doc, seen_run = state.judged.get(uri, (None, None))
        if seen_doc is not None and seen_doc() is doc and seen_run is not None and seen_run() is run:
            return False  # once per document and support run, not on every edit
        state.judged[uri] = (weakref.ref(doc), weakref.ref(run))
        if citations_to_judge(doc) < MIN_CITATIONS:
            return False
    except SETTINGS_ERRORS:
        return False
    except Exception:
        log.exception("support check of %s", uri)
        return False
    state.running.add(uri)
    ls.keep(asyncio.ensure_future(_judge(ls, uri, doc)))
    return True


async def _judge(ls: CiteLensServer, uri: str, doc: OpenDocument) -> None:
    from citelens.session.support_batch import SupportCancelled, judge_document

    loop = asyncio.get_running_loop()
    progress = Progress(ls, "support")
    name = uri.rsplit("/", 1)[-1]
    try:
        await progress.begin(f"Judging the support of {name}'s citations")

        def report(done: int, total: int) -> None:  # on the event loop
            if ls.document(uri) is not doc or progress.cancelled():
                progress.stop.set()  # closed, re-opened or cancelled
                return
            progress.report(
                types.WorkDoneProgressReport(
                    message=f"{done:,}/{total:,} citations", percentage=int(100 * done / max(total, 1))
                )
            )

        def on_progress(done: int, total: int) -> None:  # in the worker thread
            loop.call_soon_threadsafe(report, done, total)

        outcome = "done"

        def judge() -> None:  # in a worker, the document's messages held meanwhile
            nonlocal outcome
            try:
                judge_document(doc, on_progress, progress.cancelled)
            except SupportCancelled:
                outcome = "cancelled"
            except Exception:
                log.exception("support check of %s", uri)
                outcome = "failed (see the log)"

        await ls.checks.run(uri, judge)
        progress.end(outcome)
    finally:
        ls.support.running.discard(uri)
    if ls.document(uri) is doc:
        ls.request_check(uri, now=True)
