"""Edits that wait, applied together: a burst of `didChange` notifications becomes one
`OpenDocument.apply_changes` call and one check request.

A client types faster than the server applies edits one by one, so the notifications
queue (on the event loop, behind the reader thread, or held during a check). Each one
is only recorded here; the document's batch is applied when the loop has handled what
was already waiting (a callback scheduled with `call_soon`, so it runs behind the
messages queued before it), or earlier, before any other message is handled (a hover
must see the edits sent before it) and before a worker takes the document (the engine
never sees it from two threads at once: `BackgroundChecks._run` flushes first).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("citelens_server")

#: applies the waiting notifications of one document, in order
Apply = Callable[[str, list[Any]], None]


class ChangeQueue:
    """On the event loop: per document, the `didChange` params not applied yet."""

    def __init__(self, on_error: Callable[[Exception], None]) -> None:
        self.waiting: dict[str, list[Any]] = {}  # uri -> DidChangeTextDocumentParams, in order
        self.apply: dict[str, Apply] = {}
        self.on_error = on_error
        self._scheduled = False
        #: notifications and batches applied so far (the tests' and the debug log's view)
        self.notifications = 0
        self.batches = 0

    def add(self, uri: str, params: Any, apply: Apply) -> None:
        self.waiting.setdefault(uri, []).append(params)
        self.apply[uri] = apply
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush_all)

    def pending(self, uri: str) -> bool:
        return uri in self.waiting

    def _flush_all(self) -> None:
        self._scheduled = False
        self.flush()

    def flush(self, uri: str | None = None) -> None:
        """Apply the waiting edits of `uri` (None: of every document)."""
        for key in [uri] if uri is not None else list(self.waiting):
            batch = self.waiting.pop(key, None)
            apply = self.apply.pop(key, None)
            if not batch or apply is None:
                continue
            self.notifications += len(batch)
            self.batches += 1
            log.debug("%s: %d edits applied in one batch", key, len(batch))
            try:
                apply(key, batch)
            except Exception as exc:  # as pygls reports a handler's error: logged once per cause
                self.on_error(exc)
