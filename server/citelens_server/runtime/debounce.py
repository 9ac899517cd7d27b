"""When to check: one pending run per document, a newer request replacing the older."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Debouncer:
    def __init__(self) -> None:
        self._pending: dict[str, asyncio.TimerHandle | asyncio.Handle] = {}

    def schedule(self, uri: str, delay_s: float, run: Callable[[str], None]) -> None:
        self.cancel(uri)
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._pending.pop(uri, None)
            run(uri)

        self._pending[uri] = loop.call_soon(fire) if delay_s <= 0 else loop.call_later(delay_s, fire)

    def cancel(self, uri: str) -> None:
        handle = self._pending.pop(uri, None)
        if handle is not None:
            handle.cancel()

    def pending(self, uri: str) -> bool:
        return uri in self._pending
