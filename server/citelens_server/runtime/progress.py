"""One work-done progress bar with a Cancel button, for the long jobs (checking the
workspace, indexing a corpus, a large file's support check).

A client that shows no progress, or does not answer the `create` request in time, gets
none, and the job runs anyway. `cancelled` may be called from a worker thread: it reads
the client's cancel and the job's own stop flag, nothing that belongs to the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens_server.lsp.capabilities import supports
from citelens_server.runtime.protocol import progress_cancelled, when_progress_cancelled

if TYPE_CHECKING:
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

CREATE_TIMEOUT_S = 30


class Progress:
    def __init__(self, ls: CiteLensServer, kind: str) -> None:
        self.ls = ls
        self.token = f"citelens-{kind}-{next(ls.progress_tokens)}"
        self.shown = False
        self.stop = threading.Event()  # set by the job's owner: closed document, cancelled request

    async def begin(self, title: str, *, cancellable: bool = True) -> None:
        """Show the bar (at 0%; with a Cancel button unless the job cannot stop) when the
        client takes progress."""
        ls = self.ls
        if not supports(ls.client_capabilities, "window.work_done_progress"):
            return
        try:
            await asyncio.wait_for(ls.work_done_progress.create_async(self.token), CREATE_TIMEOUT_S)
        except Exception as exc:
            log.info("no progress shown (%s)", exc or "timeout")
            return
        self.shown = True
        ls.work_done_progress.begin(
            self.token, types.WorkDoneProgressBegin(title=title, cancellable=cancellable, percentage=0)
        )

    def cancelled(self) -> bool:
        """The client pressed Cancel, or the job was told to stop."""
        return self.stop.is_set() or (self.shown and progress_cancelled(self.ls, self.token))

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Call `callback` (on the event loop) as soon as the client presses Cancel: a job
        waiting on something slow stops then, not at its next step."""
        if self.shown:
            when_progress_cancelled(self.ls, self.token, callback)

    def report(self, value: types.WorkDoneProgressReport) -> None:
        if self.shown:
            self.ls.work_done_progress.report(self.token, value)

    def end(self, message: str) -> None:
        if self.shown:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
