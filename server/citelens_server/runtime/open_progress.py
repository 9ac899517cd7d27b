"""The progress bar of a big file's first check: begin when the file is opened, a report
with the share of reports checked as the worker goes, end when its diagnostics are out.

The worker thread tells `checked(n, total)` (the session's `OpenDocument.progress` hook);
percentages reach the client through the event loop, never from the worker, and only
when they moved by `STEP` points, so a 10,000-report file sends a few dozen messages, not
thousands. A client without `window.workDoneProgress` gets no request at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import asyncio

    from lsprotocol import types


class Bar(Protocol):
    """A work-done progress bar (`runtime/progress.py`'s `Progress`)."""

    shown: bool

    async def begin(self, title: str, *, cancellable: bool = True) -> None: ...
    def report(self, value: types.WorkDoneProgressReport) -> None: ...
    def end(self, message: str) -> None: ...


#: texts from which the first check of an opened file shows a progress bar (about 1,800
#: rag25 reports, a check of about a second)
PROGRESS_CHARS = 2_000_000
#: percentage points between two reports
STEP = 5
#: the share of the bar the per-report checks fill (the rest: reading, diagnostics)
CHECKING_SHARE = 90


class OpenProgress:
    def __init__(self, bar: Bar, uri: str) -> None:
        import asyncio  # here: early_check.py reads PROGRESS_CHARS before asyncio is loaded

        self.bar = bar
        self.name = uri.rsplit("/", 1)[-1]
        self.loop = asyncio.get_running_loop()
        self.sent = 0  # the last percentage reported (from the worker's side)
        self.pending: tuple[int, str] | None = None  # reported before the bar was shown

    async def show(self, running: asyncio.Future[Any] | None) -> None:
        """Begin, wait for the check in flight, end (it cannot be cancelled: the editor
        shows its findings when it ends)."""
        await self.bar.begin(f"Checking {self.name}", cancellable=False)
        if self.pending is not None:
            self._report(*self.pending)
        if running is not None:
            import asyncio

            await asyncio.wait([running])
        self.bar.end("checked")

    def checked(self, n: int, total: int) -> None:
        """In the worker: `n` of `total` reports are checked."""
        percentage = CHECKING_SHARE * n // max(total, 1)
        if percentage - self.sent < STEP:
            return
        self.sent = percentage
        message = f"{n:,} of {total:,} reports"
        self.loop.call_soon_threadsafe(self._report, percentage, message)

    def _report(self, percentage: int, message: str) -> None:
        if not self.bar.shown:
            self.pending = (percentage, message)
            return
        from lsprotocol import types  # loaded by then; not for the check before the server (early_check.py)

        self.bar.report(types.WorkDoneProgressReport(percentage=percentage, message=message))
