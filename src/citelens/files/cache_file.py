"""What to do with an SQLite cache file that cannot be used: the words for why, and
moving a damaged one aside. A cache only saves time, so none of this may cost a result;
the verdict cache and the fetched-documents cache share these rules."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

#: how long to wait for another process holding a cache file before going on without it
LOCK_WAIT = 2.0


def is_damaged(exc: BaseException) -> bool:
    """A file that is not (or no longer) an SQLite database, as opposed to one in use."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text)


def move_aside(path: Path) -> Path | None:
    """Rename a damaged cache (and its journal files) to `NAME.damaged-TIME`; None if it
    cannot be moved."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.replace(path, aside)
        for suffix in ("-wal", "-shm", "-journal"):
            if os.path.exists(f"{path}{suffix}"):
                os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    except OSError:
        return None
    return aside


#: words of SQLite's and the system's messages -> what the user reads
_REASONS = (
    (("locked", "busy"), f"is locked by another process (waited {LOCK_WAIT:g} s)"),
    (
        ("readonly", "read-only", "permission", "unable to open"),
        "cannot be written (a read-only file or folder?)",
    ),
    (("no such column", "no such table", "has no column"), "has a layout this version does not know"),
    (("not a database", "malformed"), "is damaged and could not be moved aside"),
)


def why_unusable(exc: BaseException) -> str:
    """Why a cache file cannot be used, as a predicate ("is locked by another process ...")."""
    text = str(exc).lower()
    for words, reason in _REASONS:
        if any(w in text for w in words):
            return reason
    return f"cannot be used ({type(exc).__name__}: {exc})"
