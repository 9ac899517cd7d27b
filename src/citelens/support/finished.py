"""The finished support of a whole file, kept in the verdict cache's SQLite file: its
support findings as placed and worded, and its figures, keyed by the file's text.

Why: with every verdict cached, a re-check of an unchanged run still rebuilt thousands of
findings (the verdicts read back, each finding worded and located in the JSON), about
1.4x the time of the check itself on bench_support_check's run. Like a linter's per-file
cache, an unchanged file now reads its finished support back in one row.

An entry is used only when everything its findings came from is unchanged: the file's
text (which holds its embedded documents), what else shapes them (`context`: the spec,
the severities of the support codes, the thresholds, the CiteLens version), and the
documents looked up outside the file: their sources have the same version (sizes and
modification times of index and corpus files), or, for sources that cannot tell (a
service, ir_datasets), each document's text has the same hash.

The cache file is the user's own (like Python's bytecode cache), so the findings are kept
in `marshal`'s format, which reads back fastest; anything unreadable is a miss."""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import sqlite3
import sys
import time
import zlib
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, NamedTuple

from citelens import __version__
from citelens.check.finding import Finding, Target
from citelens.source.json_text import json_dumps
from citelens.support.summary import FileSupport, ReportFigures

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS finished_files ("
    "key TEXT PRIMARY KEY, documents TEXT NOT NULL, findings BLOB NOT NULL, "
    "figures TEXT NOT NULL, reports BLOB NOT NULL, written REAL NOT NULL)"
)
#: entries kept (the oldest written go first; a read does not write, so it costs no sync):
#: one per run file and settings
KEEP = 256
_TARGETS = {t.value: t for t in Target}
_dumps = partial(json_dumps, separators=(",", ":"))  # a lone surrogate stays an escape


class FinishedFile(NamedTuple):
    """One file's support findings (file offsets, severities applied) and its support."""

    findings: list[Finding]
    support: FileSupport


def _restored(columns: list[list[Any]]) -> list[Finding]:
    """The findings of a finished file from their columns. Their slots are filled directly:
    the frozen dataclass's __init__ sets each field through object.__setattr__, twice as
    slow, and a re-check makes thousands of them here (a test compares both ways)."""
    new = object.__new__
    code_, severity_, message_, pointer_, target_, start_, end_, topic_, fix_, data_ = (
        getattr(Finding, f).__set__
        for f in (
            "code",
            "severity",
            "message",
            "pointer",
            "target",
            "start",
            "end",
            "topic_id",
            "fix",
            "data",
        )
    )
    out = []
    for start, end, code, severity, message, pointer, target, topic_id in zip(*columns, strict=True):
        f = new(Finding)
        code_(f, code)
        severity_(f, severity)
        message_(f, message)
        pointer_(f, pointer)
        target_(f, _TARGETS[target])
        start_(f, start)
        end_(f, end)
        topic_(f, topic_id)
        fix_(f, None)
        data_(f, {})
        out.append(f)
    return out


def finished_key(text: str, context: str) -> str:
    """SHA-256 (not BLAKE2 as for the verdict keys): over a whole run file, the hash with
    the CPU's help is ten times faster here."""
    versions = f"{__version__} {sys.version_info[:2]} {marshal.version}"
    h = hashlib.sha256(f"{versions}\x00{context}\x00".encode("utf-8", "surrogatepass"))
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class FinishedFiles:
    """Finished files in the SQLite file of a verdict cache (its connection and lock)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection | None], lock: Any) -> None:
        self._connect = connect
        self._lock = lock
        self._ready = False

    def _db(self, *, writing: bool = False) -> sqlite3.Connection | None:
        db = self._connect()
        if db is not None and writing and not self._ready:
            db.execute(_SCHEMA)
            self._ready = True
        return db

    def get(
        self,
        key: str,
        sources_version: str | None,
        document_hashes: Callable[[Iterable[str]], dict[str, str]],
    ) -> FinishedFile | None:
        """The finished file under `key`, if every outside document it used still has the
        text it had: its sources have the version they had then, or else each document's
        text hash is the same (`document_hashes`: doc id -> hash of its text now, "-": none)."""
        db = self._db()
        if db is None:
            return None
        try:
            with self._lock:
                row = db.execute(
                    "SELECT documents, findings, figures FROM finished_files WHERE key = ?", (key,)
                ).fetchone()
        except sqlite3.Error:
            return None  # no such table yet (it is made on the first write), or unreadable
        if row is None:
            return None
        try:
            used = json.loads(row[0])
            same_sources = sources_version is not None and used["sources"] == sources_version
            if not same_sources and document_hashes(used["documents"]) != used["documents"]:
                return None  # a document changed (or came or went): the file is judged again
            findings = _restored(marshal.loads(row[1]))
            figures = [ReportFigures(t, c, g) for t, c, g in json.loads(row[2])]
        except (ValueError, TypeError, KeyError, EOFError):
            return None  # written by another layout, or damaged: judged again
        return FinishedFile(findings, FileSupport(figures, lambda: self._reports(key)))

    def _reports(self, key: str) -> list[dict[str, Any]]:
        """Every verdict of the file, as `--format json` prints them (read only for that)."""
        db = self._db()
        assert db is not None  # the entry was read from it
        with self._lock:
            (blob,) = db.execute("SELECT reports FROM finished_files WHERE key = ?", (key,)).fetchone()
        reports: list[dict[str, Any]] = json.loads(zlib.decompress(blob).decode())
        return reports

    def put(
        self,
        key: str,
        sources_version: str | None,
        documents: dict[str, str],
        findings: list[Finding],
        support: FileSupport,
    ) -> None:
        # not kept when the file cannot (locked, read-only): the next check judges again
        with contextlib.suppress(sqlite3.Error):
            db = self._db(writing=True)
            if db is None:
                return
            # by column (a third faster to read back than a row per finding), in marshal's
            # format: plain lists of str, int and None read back twice as fast as from JSON,
            # and the key names the Python version that wrote them
            rows = [
                [f.start for f in findings],
                [f.end for f in findings],
                [f.code for f in findings],
                [f.severity for f in findings],
                [f.message for f in findings],
                [f.pointer for f in findings],
                [f.target.value for f in findings],
                [f.topic_id for f in findings],
            ]
            figures = [(f.topic_id, f.counts, f.groundedness) for f in support.figures]
            reports = zlib.compress(_dumps(support.report_documents()).encode(), 1)
            with self._lock, db:
                db.execute(
                    "INSERT OR REPLACE INTO finished_files VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        _dumps({"sources": sources_version, "documents": documents}),
                        marshal.dumps(rows),
                        _dumps(figures),
                        reports,
                        time.time(),
                    ),
                )
                db.execute(
                    "DELETE FROM finished_files WHERE key NOT IN "
                    "(SELECT key FROM finished_files ORDER BY written DESC LIMIT ?)",
                    (KEEP,),
                )
