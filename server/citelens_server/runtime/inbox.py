"""Calls from the reader threads to the event loop, one wake-up for as many as queue.

`loop.call_soon_threadsafe` per message writes to the loop's wake-up socket and makes a
handle each time: in a burst of 2,000 keystrokes that was a sixth of the reader's time
and as many turns of the loop. Here the reader appends to a queue and wakes the loop only
when the queue was empty; the loop runs what waits, in order, at most as many calls as
were there when it started, so the callbacks scheduled meanwhile (a batch of edits to
apply, a worker's result) keep their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger("citelens_server")


class Inbox:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.calls: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self.lock = threading.Lock()
        self.woken = False  # a drain is scheduled and has not yet found the queue empty

    def put(self, fn: Callable[..., None], *args: Any) -> None:
        """From any thread: run `fn(*args)` on the loop, after every call put before it."""
        with self.lock:
            self.calls.append((fn, args))
            if self.woken:
                return
            self.woken = True
        with contextlib.suppress(RuntimeError):  # a closed loop: the server is exiting
            self.loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        for _ in range(len(self.calls)):
            fn, args = self.calls.popleft()
            try:
                fn(*args)
            except Exception:  # the calls catch their own errors; this one escaped them
                log.exception("handling a message")
        with self.lock:
            if not self.calls:
                self.woken = False
                return
        self.loop.call_soon(self._drain)  # more came: after what was scheduled meanwhile
