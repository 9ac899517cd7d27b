"""The session `Workspace`, made after the `initialize` answer instead of before it.

Making it loads the engine (settings, specs, every rule: about a third of the time from
process start to the answer), and `initialize` needs none of it. `initialize` only
records the folders and options (`plan`); the answer is written; then a worker thread
makes the workspace and loads what the first check needs (`warm_up`) while the server
waits for the client's next messages. Whatever asks for the session first (a didOpen
right behind `initialized`, or the warm-up) makes it, once, under a lock: a handler
never sees a half-made session, and the answers are those of an eager start.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citelens.session import Workspace


log = logging.getLogger("citelens_server")


class LazySession:
    def __init__(self) -> None:
        self._workspace: Workspace | None = None
        self._plan: tuple[tuple[Path, ...], Mapping[str, Any] | None] | None = None
        self._lock = threading.Lock()

    def plan(self, roots: tuple[Path, ...], init_options: Mapping[str, Any] | None) -> None:
        """What the workspace will be made of (`initialize`'s folders and options)."""
        self._plan = (roots, init_options)

    def set(self, workspace: Workspace | None) -> None:
        with self._lock:
            self._workspace = workspace

    @property
    def made(self) -> bool:
        return self._workspace is not None

    def get(self) -> Workspace | None:
        """The workspace, made now if it is planned and not made yet (None before
        `initialize`)."""
        workspace = self._workspace
        if workspace is not None or self._plan is None:
            return workspace
        with self._lock:
            if self._workspace is None:
                from citelens.session import Workspace

                roots, init_options = self._plan
                self._workspace = Workspace(roots, init_options=init_options)
            return self._workspace


def warm_up(session: LazySession) -> None:
    """In a worker thread after the `initialize` answer: the workspace, the engine and
    the built-in spec tables, loaded before the first document needs them."""
    try:
        from citelens.session.warm import load_engine

        session.get()
        load_engine()
    except Exception as exc:  # the first use makes it again, and says what is wrong
        log.info("engine not loaded ahead (%s)", exc)


def warm_features() -> None:
    """In a worker once the first diagnostics are out: what the first hover, code action
    or outline would import (`citelens.session.warm.load_features`), loaded before a user
    asks, and not during the first check, which would wait for it."""
    try:
        from citelens.session.warm import load_features

        load_features()
    except Exception as exc:  # the first use imports it, and says what is wrong
        log.info("editor features not loaded ahead (%s)", exc)
