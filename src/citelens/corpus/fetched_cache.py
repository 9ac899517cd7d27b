"""The on-disk cache of documents fetched from a service, so a re-check (even offline) does not fetch again."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from citelens.files.cache_file import LOCK_WAIT

#: how long "the service does not have it" is believed before asking again
ABSENT_SECONDS = 24 * 3600.0


class FetchedCache:
    """id -> the service's answer (a document body, or absent), one SQLite file per service."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=LOCK_WAIT)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS fetched(id TEXT PRIMARY KEY, found INTEGER NOT NULL, body TEXT, at REAL NOT NULL)"
        )
        self.lock = threading.Lock()

    def get_many(self, ids: list[str]) -> dict[str, tuple[bool, Any]]:
        """Cached answers: id -> (found, decoded body); stale "absent" answers are left out."""
        out: dict[str, tuple[bool, Any]] = {}
        oldest_absent = time.time() - ABSENT_SECONDS
        with self.lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for doc_id, found, body, at in self.con.execute(
                    f"SELECT id, found, body, at FROM fetched WHERE id IN ({marks})", chunk
                ):
                    if found:
                        out[doc_id] = (True, json.loads(body))
                    elif at >= oldest_absent:
                        out[doc_id] = (False, None)
        return out

    def put_many(self, answers: dict[str, tuple[bool, Any]]) -> None:
        if not answers:
            return
        now = time.time()
        rows = [
            (i, int(found), json.dumps(body) if found else None, now) for i, (found, body) in answers.items()
        ]
        with self.lock:
            self.con.execute("BEGIN")
            self.con.executemany("INSERT OR REPLACE INTO fetched VALUES(?, ?, ?, ?)", rows)
            self.con.execute("COMMIT")

    def close(self) -> None:
        self.con.close()
