"""Why a document version could not be checked, kept as plain values.

A failed check is a result like any other: requests about the document are answered from
it and the next edit or settings change checks again. An exception object is never kept:
its traceback holds the frames of the check, and with them the text of the version that
failed (every keystroke on a broken line would keep one more copy of the file alive).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

log = logging.getLogger("citelens_server")

#: distinct internal errors whose traceback was logged (each cause once); then dropped
LOGGED_CAUSES_MAX = 256


@dataclass(frozen=True)
class Problem:
    """`settings`: a settings, spec or topics file cannot be used (shown where it is);
    `error`: the check itself failed (an internal error, logged once per cause)."""

    kind: Literal["settings", "error"]
    message: str  # for people: what the report file's diagnostic says
    path: str | None = None  # the settings, spec or topics file at fault
    line: int | None = None
    reason: str = ""  # the problem without its place (the settings file's diagnostic)

    @classmethod
    def settings(cls, exc: Exception) -> Problem:
        path = getattr(exc, "path", None)
        line = getattr(exc, "line", None)
        reason = getattr(exc, "reason", None)
        return cls(
            "settings",
            f"citelens cannot check this file: {exc}",
            str(path) if path is not None else None,
            line if isinstance(line, int) else None,
            reason if isinstance(reason, str) else str(exc),
        )

    @classmethod
    def internal(cls, exc: BaseException) -> Problem:
        return cls("error", f"citelens could not check this file: internal error ({cause(exc)}); see the log")


def cause(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class ErrorLog:
    """Logs an internal error with its traceback once per cause (type and message), so a
    failure met on every keystroke or retry fills no log; the exception is not kept."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def error(self, what: str, exc: BaseException) -> None:
        key = f"{what}\0{cause(exc)}"
        if key in self._seen:
            log.debug("%s again: %s", what, cause(exc))
            return
        if len(self._seen) >= LOGGED_CAUSES_MAX:
            self._seen.clear()
        self._seen.add(key)
        log.error("%s: %s", what, cause(exc), exc_info=exc)

    def forget(self) -> None:
        """Settings changed: a cause seen before is news again."""
        self._seen.clear()


def detached(exc: BaseException) -> BaseException:
    """`exc` without its traceback and chained exceptions (nothing of the frames that
    raised it stays reachable through it)."""
    exc.__traceback__ = None
    exc.__context__ = None
    exc.__cause__ = None
    return exc
