"""The cyclic garbage collector around big documents.

Reading a 50 MB run makes millions of long-lived objects, and Python's collector walks
them again and again while they are made: each walk is one stretch of C with the GIL
held (hundreds of milliseconds for the middle generation, seconds for the oldest), and
every other thread, the event loop answering a hover on another file among them, waits.
So while a big document is opened or checked in a worker the collector is paused (the
objects are freed by reference counting as usual; only cycles wait), and when that work
ends what is alive is frozen (`gc.freeze`): later collections skip it (without the
freeze, the first collection after the pause walks every object the work made, half a
second on a 50 MB run). The cost: a cycle that becomes garbage while frozen waits until
a big document is closed, when everything is unfrozen and can go.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: documents from which the collector is paused while they are read or checked
BIG_CHARS = 5_000_000


class Collector:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._paused = 0  # big jobs running
        self._resume = False  # the collector was enabled when the first one started

    @contextmanager
    def paused(self, *, freeze: bool = False) -> Iterator[None]:
        """No cyclic collection while the block runs (nested and concurrent blocks:
        until the last ends); `freeze`: what is alive then is frozen."""
        with self._lock:
            if self._paused == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._paused += 1
        try:
            yield
        finally:
            with self._lock:
                self._paused -= 1
                if freeze:
                    gc.freeze()
                if self._paused == 0 and self._resume:
                    gc.enable()

    def closed_big(self) -> None:
        """A big document was closed: its frozen objects may hold cycles to collect."""
        gc.unfreeze()
