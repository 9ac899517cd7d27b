"""The support check of a large file (setting `support` on), with work-done progress and
cancellation: in the check's worker thread (background.py), before the findings.

The engine judges every citation of the file in one batch (`citelens.session.support_batch`);
the verdicts land in the support cache, so the findings that follow read them from memory.
This happens once per document and support judge (on open, and when the settings make a
new judge), not on every edit. A cancelled batch keeps nothing: the check then judges the
citations as it goes.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import weakref
from typing import Any

from lsprotocol import types

from citelens_server.server import SETTINGS_ERRORS, CiteLensServer, _supports

log = logging.getLogger("citelens_server")

#: citations from which a file's support check shows progress
MIN_CITATIONS = 200
#: how long a worker waits for the client to accept a progress token
CREATE_TIMEOUT_S = 5.0
_tokens = itertools.count(1)
#: uri -> (the document, the support run) whose citations were judged in a batch
_judged: dict[str, tuple[weakref.ref[Any], weakref.ref[Any]]] = {}


def _worth_a_batch(doc: Any, uri: str) -> bool:
    from citelens.session.support_batch import citations_to_judge

    run = doc.checker.support
    if run is None:
        return False
    seen_doc, seen_run = _judged.get(uri, (None, None))
    if seen_doc is not None and seen_doc() is doc and seen_run is not None and seen_run() is run:
        return False  # once per document and support run, not on every edit
    _judged[uri] = (weakref.ref(doc), weakref.ref(run))
    return citations_to_judge(doc) >= MIN_CITATIONS


def judge_in_worker(ls: CiteLensServer, doc: Any, uri: str, loop: asyncio.AbstractEventLoop | None) -> None:
    """In a check's worker thread: judge the document's citations in one batch, with
    progress, when it is worth it. Never raises (a failure is logged; the check goes on)."""
    from citelens.session.support_batch import SupportCancelled, judge_document

    if loop is None:
        return
    try:
        if not _worth_a_batch(doc, uri):
            return
    except SETTINGS_ERRORS:
        return  # the check says what is wrong
    except Exception:
        log.exception("support check of %s", uri)
        return
    token = f"citelens-support-{next(_tokens)}"
    progress = _supports(ls.client_capabilities, "window.work_done_progress")
    if progress:
        created = asyncio.run_coroutine_threadsafe(ls.work_done_progress.create_async(token), loop)
        try:
            created.result(CREATE_TIMEOUT_S)
        except Exception as exc:
            created.cancel()
            log.info("no progress shown (%s)", exc or "timeout")
            progress = False
    name = uri.rsplit("/", 1)[-1]
    if progress:
        loop.call_soon_threadsafe(
            ls.work_done_progress.begin,
            token,
            types.WorkDoneProgressBegin(
                title=f"Judging the support of {name}'s citations", cancellable=True, percentage=0
            ),
        )

    def on_progress(done: int, total: int) -> None:
        if progress:
            value = types.WorkDoneProgressReport(
                message=f"{done:,}/{total:,} citations", percentage=int(100 * done / max(total, 1))
            )
            loop.call_soon_threadsafe(ls.work_done_progress.report, token, value)

    def cancelled() -> bool:
        future = ls.work_done_progress.tokens.get(token) if progress else None
        return bool(future is not None and future.cancelled()) or ls.document(uri) is not doc

    outcome = "done"
    try:
        judge_document(doc, on_progress, cancelled)
    except SupportCancelled:
        outcome = "cancelled"
    except Exception:
        log.exception("support check of %s", uri)
        outcome = "failed (see the log)"
    if progress:
        loop.call_soon_threadsafe(
            ls.work_done_progress.end, token, types.WorkDoneProgressEnd(message=outcome)
        )
