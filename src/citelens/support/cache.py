"""Verdicts cached per (sentence text, document id, document text hash, settings): in
memory for the session and, given a path, on disk (SQLite, shared by processes), so
re-checking an unchanged run costs a lookup per citation."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from citelens.files.cache_file import LOCK_WAIT, is_damaged, move_aside, why_unusable
from citelens.source.json_text import json_dumps
from citelens.support.settings import SupportSettings

if TYPE_CHECKING:  # loaded when verdicts are read or written (a finished file needs neither)
    from citelens.support.verdict import SupportVerdict

_log = logging.getLogger(__name__)

# rows are `verdict.to_row` arrays (a file of an older layout keeps its old table, unread)
_SCHEMA = "CREATE TABLE IF NOT EXISTS verdict_rows (key TEXT PRIMARY KEY, row TEXT NOT NULL)"


#: the word matcher's rules: raised whenever a rule changes what it says under the same
#: thresholds, so that verdicts cached by an older CiteLens are judged again
LEXICAL_RULES = 9


def settings_fingerprint(settings: SupportSettings) -> str:
    """Changing a threshold or a rule changes every key: old verdicts are not reused
    under new rules."""
    data = {**settings.model_dump(), "lexical_rules": LEXICAL_RULES}
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=8).hexdigest()


_HASHES: dict[str, str] = {}


def text_hash(text: str) -> str:
    """The document-text part of a verdict's cache key (memoised: a run cites the same
    documents again and again, and a str keeps its own hash)."""
    h = _HASHES.get(text)
    if h is None:
        h = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        if len(_HASHES) > 4096:
            _HASHES.clear()
        _HASHES[text] = h
    return h


def verdict_key(sentence: str, doc_id: str, doc_hash: str, fingerprint: str) -> str:
    """The key of one pair: the four parts, each followed by a NUL, hashed in one go."""
    joined = f"{sentence}\x00{doc_id}\x00{doc_hash}\x00{fingerprint}\x00"
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


class VerdictCache:
    """A dict in front of an optional SQLite file; writes are batched by ``flush``.

    The file never costs a result: when it cannot be used (a read-only folder, a file
    locked by another process, another program's schema, a damaged file) `warn` is told
    once and the check goes on with the memory cache; a damaged file is first moved aside
    (`NAME.damaged-TIME`) and a new one made in its place."""

    def __init__(self, path: str | Path | None = None, warn: Callable[[str], None] | None = None) -> None:
        self.memory: dict[str, SupportVerdict] = {}
        #: verdicts put in `memory` so far (judged, or read from disk): what a reader that
        #: keeps what it assembled from them compares (OpenDocument.support_at)
        self.writes = 0
        self.path = Path(path) if path is not None else None
        self.problem: str | None = None  # why the file is not used (None: it is, or there is none)
        self._warn = warn or _log.warning
        self._pending: dict[str, str] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0

    @property
    def lock(self) -> threading.Lock:
        return self._lock

    def connection(self) -> sqlite3.Connection | None:
        """The SQLite connection (None: memory only), opened on first use; shared with
        the cache of finished files (finished.py), which keeps its own table in it."""
        return self._connect()

    def _connect(self) -> sqlite3.Connection | None:
        if self.path is None or self.problem is not None:
            return None
        if self._db is None:
            try:
                self._db = self._open(self.path)
            except (sqlite3.Error, OSError) as exc:
                if not is_damaged(exc) or not self._move_aside(self.path):
                    self._give_up(exc)
                    return None
                try:
                    self._db = self._open(self.path)
                except (sqlite3.Error, OSError) as again:
                    self._give_up(again)
                    return None
        return self._db

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=LOCK_WAIT, check_same_thread=False)
        try:
            db.execute(_SCHEMA)
            db.execute("SELECT key, row FROM verdict_rows LIMIT 1").fetchall()  # our columns?
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self, path: Path) -> bool:
        aside = move_aside(path)
        if aside is None:
            return False
        self._warn(
            f"the verdict cache {path} was damaged; it was moved to {aside.name} and a new one started"
        )
        return True

    def _give_up(self, exc: BaseException) -> None:
        """Go on in memory, and say so once."""
        if self._db is not None:
            with _suppressed():
                self._db.close()
            self._db = None
        self._pending.clear()
        self.problem = why_unusable(exc)
        self._warn(
            f"the verdict cache {self.path} {self.problem}; checking without it (verdicts are not kept)"
        )

    def stamp(self) -> object:
        """What changes when another process writes the file (its size and time), for a
        reader that remembers which keys it lacks; None for memory only."""
        if self.path is None:
            return None
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns)

    def get_many(self, keys: list[str]) -> dict[str, SupportVerdict]:
        """The cached verdicts among ``keys`` (memory first, then disk)."""
        found = {k: self.memory[k] for k in keys if k in self.memory}
        missing = [k for k in keys if k not in found]
        db = self._connect()
        loads = json.loads
        if missing and db is not None:
            from citelens.support.verdict import from_row

            with self._lock:
                try:
                    rows = []
                    for start in range(0, len(missing), 500):
                        chunk = missing[start : start + 500]
                        marks = ",".join("?" * len(chunk))
                        rows += db.execute(
                            f"SELECT key, row FROM verdict_rows WHERE key IN ({marks})", chunk
                        ).fetchall()
                except sqlite3.Error as exc:
                    self._give_up(exc)
                    rows = []
                for key, text in rows:
                    try:
                        verdict = from_row(loads(text))
                    except (ValueError, TypeError, KeyError):
                        continue  # a row of another layout (or damaged): judged again
                    self.memory[key] = verdict
                    found[key] = verdict
                    self.writes += 1
        self.hits += len(found)
        self.misses += len(keys) - len(found)
        return found

    def put(self, key: str, verdict: SupportVerdict) -> None:
        self.memory[key] = verdict
        self.writes += 1
        if self.path is not None and self.problem is None:
            from citelens.support.verdict import to_row

            self._pending[key] = json_dumps(to_row(verdict), separators=(",", ":"))

    def flush(self) -> None:
        """Write the new verdicts to disk in one transaction."""
        db = self._connect()
        if db is None or not self._pending:
            return
        try:
            with self._lock, db:
                db.executemany(
                    "INSERT OR REPLACE INTO verdict_rows (key, row) VALUES (?, ?)", self._pending.items()
                )
        except sqlite3.Error as exc:
            self._give_up(exc)
        self._pending.clear()

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            with _suppressed():
                self._db.close()
            self._db = None


def _suppressed() -> contextlib.AbstractContextManager[None]:
    return contextlib.suppress(sqlite3.Error)
