"""Edits that wait, applied together: a burst of `didChange` notifications becomes one
`OpenDocument.apply_changes` call and one check request.

A client types faster than the server applies edits one by one, so the notifications
queue (on the event loop, behind the reader thread, or held during a check). Each one
is only recorded here; the document's batch is applied when the loop has handled what
was already waiting (a callback scheduled with `call_soon`, so it runs behind the
messages queued before it), or earlier, before any other message is handled (a hover
must see the edits sent before it) and before a worker takes the document (the engine
never sees it from two threads at once: `BackgroundChecks._run` flushes first).

In a burst the loop catches up with the reader many times, and a batch at each of those
turns paid for the whole document (its text copied, its edited reports checked again)
each time: so edits that come within `QUIET_S` of the last batch wait for a pause of
that long in the edits, at most `QUIET_MAX_S` after the first of them. The first edit
after a pause is applied at once, so typing gets its diagnostics as before.

A hover is the exception: when every waiting edit of its document keeps each line where it
is (a range on one line, no line break typed) and none is on the hover's line, the
hover's line reads the same before and after them, so it is answered from the text
before the batch and the batch stays whole (`keeps_line`). In a burst, a flush for every
hover cut the edits into small batches, each paying for the whole document once, and
the hovers waited behind them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from citelens_server.runtime.change_offsets import kept_line

log = logging.getLogger("citelens_server")

#: applies the waiting notifications of one document, in order
Apply = Callable[[str, list[Any]], None]
#: seconds without a new edit before a batch is applied, when the last batch was applied
#: less than this ago (edits are coming in a burst); the first edit after a pause is
#: applied as soon as the loop has handled what was waiting
QUIET_S = 0.002
#: a burst's batch waits for a pause at most this long (seconds) after its first edit
QUIET_MAX_S = 0.1


class ChangeQueue:
    """On the event loop: per document, the `didChange` params not applied yet."""

    def __init__(self, on_error: Callable[[Exception], None]) -> None:
        self.waiting: dict[str, list[Any]] = {}  # uri -> DidChangeTextDocumentParams, in order
        self.apply: dict[str, Apply] = {}
        #: uri -> the lines its waiting edits touch; None once one may move lines
        self.touched: dict[str, set[int] | None] = {}
        self.on_error = on_error
        self._scheduled = False
        #: `time.monotonic()`: the last batch applied, the last edit recorded, the first one waiting
        self._applied_at = self._added_at = self._first_at = float("-inf")
        self._pausing = False  # the scheduled batch waits for a pause in the edits
        #: notifications and batches applied so far (the tests' and the debug log's view)
        self.notifications = 0
        self.batches = 0

    def add(self, uri: str, params: Any, apply: Apply) -> None:
        self.waiting.setdefault(uri, []).append(params)
        self.apply[uri] = apply
        lines = self.touched.setdefault(uri, set())
        if lines is not None:
            self.touched[uri] = _touch(lines, params)
        self._added_at = now = time.monotonic()
        if not self._scheduled:
            loop = asyncio.get_running_loop()
            self._scheduled = True
            self._first_at = now
            self._pausing = now - self._applied_at < QUIET_S  # edits keep coming: wait for a pause
            if self._pausing:
                loop.call_later(QUIET_S, self._flush_all)
            else:
                loop.call_soon(self._flush_all)

    def pending(self, uri: str) -> bool:
        return uri in self.waiting

    def keeps_line(self, uri: str, line: int) -> bool:
        """Whether `uri` has waiting edits and they leave line `line` as it reads now, at
        the same line number."""
        lines = self.touched.get(uri)
        return uri in self.waiting and lines is not None and line not in lines

    def _flush_all(self) -> None:
        now = time.monotonic()
        quiet = now - self._added_at
        if self._pausing and quiet < QUIET_S and now - self._first_at < QUIET_MAX_S:  # a burst goes on
            asyncio.get_running_loop().call_later(QUIET_S - quiet, self._flush_all)
            return
        self._scheduled = False
        self.flush()

    def flush(self, uri: str | None = None, keep: str | None = None) -> None:
        """Apply the waiting edits of `uri` (None: of every document but `keep`)."""
        for key in [uri] if uri is not None else [k for k in self.waiting if k != keep]:
            self.touched.pop(key, None)
            batch = self.waiting.pop(key, None)
            apply = self.apply.pop(key, None)
            if not batch or apply is None:
                continue
            self.notifications += len(batch)
            self.batches += 1
            self._applied_at = time.monotonic()
            log.debug("%s: %d edits applied in one batch", key, len(batch))
            try:
                apply(key, batch)
            except Exception as exc:  # as pygls reports a handler's error: logged once per cause
                self.on_error(exc)


def _touch(lines: set[int], params: Any) -> set[int] | None:
    """`lines` with those a notification's changes touch; None if one may move lines."""
    for change in getattr(params, "content_changes", ()):
        line = kept_line(change)
        if line is None:
            return None
        lines.add(line)
    return lines
