"""The embedded index: an SQLite file mapping doc id -> source file, line and the raw record.

Chosen by measurement (bench/bench_corpus.py): an ordinary table with a TEXT primary key,
WAL journal, batched inserts; the stdlib's sqlite3, so no dependency. Readers open it
read-only while a build runs (WAL gives them committed batches only, so never a torn
document); `meta.state` is `complete` only after a build read every file to its end.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.shapes import FieldMap

FORMAT = "citelens-index-1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    no INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    consumed INTEGER NOT NULL DEFAULT 0, lines INTEGER NOT NULL DEFAULT 0, docs INTEGER NOT NULL DEFAULT 0,
    bad INTEGER NOT NULL DEFAULT 0, duplicates INTEGER NOT NULL DEFAULT 0, complete INTEGER NOT NULL DEFAULT 0,
    head BLOB, tail BLOB, fields TEXT, stopped TEXT);
CREATE TABLE IF NOT EXISTS problems(file INTEGER NOT NULL, line INTEGER NOT NULL, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(id TEXT PRIMARY KEY, file INTEGER NOT NULL, line INTEGER NOT NULL, raw BLOB NOT NULL);
"""

#: ids per SELECT ... IN (...) (well under SQLite's variable limit)
_CHUNK = 500


def is_index_file(path: Path) -> bool:
    """True for an SQLite file (an index built by `citelens index`, or something to say is not one)."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


@dataclass(frozen=True)
class IndexedFile:
    no: int
    path: str
    size: int
    mtime_ns: int
    docs: int
    lines: int
    bad: int
    duplicates: int
    complete: bool
    fields: FieldMap | None
    stopped: str | None


def record_document(
    raw: bytes | str, fields: FieldMap, origin: str, file: str | None = None, line: int | None = None
) -> CorpusDocument:
    """A stored record as a document, through its file's field map."""
    rec = json.loads(raw)

    def text_of(name: str) -> str | None:
        value = rec.get(name)
        if value is None:
            return None
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return CorpusDocument(
        id=str(rec.get(fields.id)),
        text=text_of(fields.text) or "",
        title=text_of(fields.title),
        url=text_of(fields.url),
        origin=origin,
        fields=rec,
        file=file,
        line=line,
    )


class IndexReader:
    """Read access to an index file; safe while another process builds it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self.con.execute("PRAGMA query_only=1")
        self._files: dict[int, IndexedFile] = {}
        self._files_read = 0.0

    def close(self) -> None:
        self.con.close()

    def meta(self) -> dict[str, str]:
        try:
            return dict(self.con.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError:
            return {}

    def files(self, fresh: bool = False) -> dict[int, IndexedFile]:
        """The indexed files (cached a second; a build in progress adds to them)."""
        now = time.monotonic()
        if fresh or not self._files or now - self._files_read > 1.0:
            rows = self.con.execute(
                "SELECT no, path, size, mtime_ns, docs, lines, bad, duplicates, complete, fields, stopped FROM files"
            ).fetchall()
            self._files = {
                r[0]: IndexedFile(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    r[6],
                    r[7],
                    bool(r[8]),
                    FieldMap.from_dict(json.loads(r[9])) if r[9] else None,
                    r[10],
                )
                for r in rows
            }
            self._files_read = now
        return self._files

    def problems(self, limit: int = 20) -> list[tuple[str, int, str]]:
        files = self.files()
        rows = self.con.execute(
            "SELECT file, line, message FROM problems ORDER BY file, line LIMIT ?", (limit,)
        ).fetchall()
        return [(files[f].path if f in files else "?", line, msg) for f, line, msg in rows]

    def get_many(self, ids: Iterable[str]) -> Lookup:
        """Every asked id: its document, or None (the caller decides whether None means absent)."""
        wanted = list(dict.fromkeys(ids))
        out = Lookup()
        found: dict[str, tuple[int, int, bytes]] = {}
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for doc_id, file_no, line, raw in self.con.execute(
                f"SELECT id, file, line, raw FROM docs WHERE id IN ({marks})", chunk
            ):
                found[doc_id] = (file_no, line, raw)
        files = self.files(fresh=any(f not in self._files for f, _, _ in found.values()))
        for doc_id in wanted:
            hit = found.get(doc_id)
            if hit is None:
                out.documents[doc_id] = None
                continue
            indexed = files.get(hit[0])
            if indexed is None or indexed.fields is None:
                out.documents[doc_id] = None
                continue
            out.documents[doc_id] = record_document(
                hit[2], indexed.fields, f"{indexed.path}:{hit[1]}", indexed.path, hit[1]
            )
        return out

    def count(self) -> int:
        return int(self.con.execute("SELECT COALESCE(SUM(docs), 0) FROM files").fetchone()[0])
