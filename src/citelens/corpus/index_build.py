"""Building the embedded index: incremental, resumable, readable while it runs.

Each batch of documents is committed together with how far its file has been read, so a
build killed at any moment leaves a consistent index that the next run continues from. An
unchanged file is not read again; a file that grew (same first and last-read bytes) is read
on from where the last build stopped; any other change re-reads that file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import operator
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citelens.corpus.index_store import FORMAT, SCHEMA
from citelens.corpus.reading import CorpusFileError, LineReader, corpus_files
from citelens.corpus.shapes import FieldMap, describe_shapes, detect_fields

#: documents per committed batch, and the longest time between two commits
BATCH_DOCS = 20_000
BATCH_SECONDS = 2.0
#: records read before the shape of a file is decided
SHAPE_SAMPLE = 20
#: problems (bad lines) kept per file; all are counted
PROBLEMS_KEPT = 50
_EDGE = 4096


_first = operator.itemgetter(0)


class IndexBusy(Exception):
    """Another process is building this index right now."""


class IndexCancelled(Exception):
    """The caller asked the build to stop; what was committed stays, and the next build resumes."""


@dataclass
class BuildProgress:
    """What a progress display needs: documents so far, bytes read of the total, time spent."""

    docs: int = 0
    bytes_done: int = 0
    bytes_total: int = 0
    elapsed: float = 0.0
    file: str = ""

    @property
    def rate(self) -> float:
        return self.docs / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        if self.bytes_done <= 0 or self.elapsed <= 0 or self.bytes_total <= self.bytes_done:
            return None
        return (self.bytes_total - self.bytes_done) * self.elapsed / self.bytes_done


@dataclass
class FileOutcome:
    path: str
    action: str  # "unchanged", "read", "resumed", "re-read", "failed"
    docs: int = 0  # documents added in this run
    bad: int = 0  # bad lines met in this run
    duplicates: int = 0
    stopped: str | None = None


@dataclass
class BuildReport:
    db: Path
    files: list[FileOutcome] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)
    total_docs: int = 0
    seconds: float = 0.0
    bytes_read: int = 0

    @property
    def docs_added(self) -> int:
        return sum(f.docs for f in self.files)


def _connect(db: Path) -> sqlite3.Connection:
    db.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(db, isolation_level=None)
    con.execute(
        "PRAGMA page_size=16384"
    )  # for a new file: ~1 KB records, fewer and shallower pages (measured)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("PRAGMA cache_size=-262144")  # 256 MiB of page cache while building
    con.execute("PRAGMA busy_timeout=10000")
    con.executescript(SCHEMA)
    fmt = con.execute("SELECT value FROM meta WHERE key='format'").fetchone()
    if fmt is None:
        con.execute("INSERT INTO meta VALUES('format', ?)", (FORMAT,))
    elif fmt[0] != FORMAT:
        raise CorpusFileError(f"{db}: an index of another format ({fmt[0]}); delete it to rebuild")
    return con


@contextlib.contextmanager
def _build_lock(db: Path) -> Iterator[None]:
    lock_path = db.with_name(db.name + ".lock")
    db.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise IndexBusy(f"{db}: another `citelens index` is building this index right now") from exc
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _head(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(_EDGE)


class _Builder:
    def __init__(
        self,
        con: sqlite3.Connection,
        report: BuildReport,
        progress: BuildProgress,
        on_progress: Callable[[BuildProgress], None] | None,
        overrides: Mapping[str, str],
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.con = con
        self.report = report
        self.progress = progress
        self.on_progress = on_progress
        self.overrides = overrides
        self.cancelled = cancelled
        self.started = time.monotonic()
        self.bytes_before = 0  # bytes of files already done in this run
        self.last_tick = 0.0

    def tick(self, reader: LineReader | None, pending: int = 0, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_tick < 0.25:
            return
        self.last_tick = now
        if self.cancelled is not None and self.cancelled():
            # called between batches only (never inside a transaction): the index stays
            # consistent and marked "building", so nobody takes it for complete
            raise IndexCancelled("the index build was cancelled; the next build resumes it")
        self.progress.elapsed = now - self.started

        self.progress.bytes_done = self.bytes_before + (reader.disk_position() if reader else 0)
        if self.on_progress is not None:
            shown = BuildProgress(
                self.progress.docs + pending,
                self.progress.bytes_done,
                self.progress.bytes_total,
                self.progress.elapsed,
                self.progress.file,
            )
            self.on_progress(shown)

    def file_row(self, path: Path) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self.con.execute(
            "SELECT no, size, mtime_ns, consumed, lines, complete, head, tail, fields FROM files WHERE path=?",
            (str(path),),
        ).fetchone()
        return row

    def index_file(self, path: Path) -> FileOutcome:
        stat = path.stat()
        head = _head(path)
        row = self.file_row(path)
        outcome = FileOutcome(str(path), "read")
        resume_from: tuple[int, int, bytes | None] | None = None
        fields: FieldMap | None = None
        if row is not None:
            no, size, mtime_ns, consumed, lines, complete, old_head, old_tail, fields_json = row
            unchanged = size == stat.st_size and mtime_ns == stat.st_mtime_ns
            if complete and unchanged:
                self.bytes_before += stat.st_size
                return FileOutcome(str(path), "unchanged")
            same_start = consumed == 0 or old_head == head[: len(old_head or b"")]
            if stat.st_size >= size and same_start and (not complete or stat.st_size > size):
                resume_from = (consumed, lines, old_tail)
                fields = FieldMap.from_dict(json.loads(fields_json)) if fields_json else None
                outcome.action = "resumed" if not complete else "read on"
            else:
                outcome.action = "re-read"
                self.con.execute("BEGIN IMMEDIATE")
                self.con.execute("DELETE FROM docs WHERE file=?", (no,))
                self.con.execute("DELETE FROM problems WHERE file=?", (no,))
                self.con.execute(
                    "UPDATE files SET consumed=0, lines=0, docs=0, bad=0, duplicates=0, complete=0, "
                    "fields=NULL, stopped=NULL, tail=NULL WHERE no=?",
                    (no,),
                )
                self.con.execute("COMMIT")
        else:
            self.con.execute("BEGIN IMMEDIATE")
            cur = self.con.execute(
                "INSERT INTO files(path, size, mtime_ns, head) VALUES(?, ?, ?, ?)",
                (str(path), stat.st_size, stat.st_mtime_ns, head),
            )
            no = cur.lastrowid
            self.con.execute("COMMIT")
        self.con.execute(
            "UPDATE files SET size=?, mtime_ns=?, head=?, complete=0 WHERE no=?",
            (stat.st_size, stat.st_mtime_ns, head, no),
        )
        with LineReader(path) as reader:
            if resume_from is not None:
                consumed, lines, old_tail = resume_from
                tail = reader.skip_to(consumed, lines)
                if reader.consumed != consumed or not tail.endswith(old_tail or b""):
                    reader.close()
                    self.con.execute("UPDATE files SET consumed=0, lines=0, fields=NULL WHERE no=?", (no,))
                    self.con.execute("DELETE FROM docs WHERE file=?", (no,))
                    self.con.execute("DELETE FROM problems WHERE file=?", (no,))
                    self.con.execute("UPDATE files SET docs=0, bad=0, duplicates=0 WHERE no=?", (no,))
                    outcome.action = "re-read"
                    return self._read(path, no, LineReader(path), None, outcome, stat.st_size)
            return self._read(path, no, reader, fields, outcome, stat.st_size)

    def _read(
        self,
        path: Path,
        no: int,
        reader: LineReader,
        fields: FieldMap | None,
        outcome: FileOutcome,
        size: int,
    ) -> FileOutcome:
        con = self.con
        loads = json.loads
        rows: list[tuple[str, int, int, bytes]] = []
        problems: list[tuple[int, int, str]] = []
        sample: list[tuple[int, bytes, dict[str, Any]]] = []
        kept = con.execute("SELECT COUNT(*) FROM problems WHERE file=?", (no,)).fetchone()[0]
        bad = 0
        last_commit = time.monotonic()
        id_field = fields.id if fields else ""
        self.progress.file = str(path)

        def flush(final: bool) -> None:
            nonlocal rows, problems, bad, kept, last_commit
            # in id order, the primary-key index is written page after page instead of all
            # over (a stable sort: of two equal ids the first line still wins)
            rows.sort(key=_first)
            con.execute("BEGIN IMMEDIATE")
            before = con.total_changes
            con.executemany("INSERT OR IGNORE INTO docs VALUES(?, ?, ?, ?)", rows)
            added = con.total_changes - before
            room = max(0, PROBLEMS_KEPT - kept)
            con.executemany("INSERT INTO problems VALUES(?, ?, ?)", problems[:room])
            kept += min(room, len(problems))
            con.execute(
                "UPDATE files SET consumed=?, lines=?, docs=docs+?, bad=bad+?, duplicates=duplicates+?, "
                "tail=?, fields=?, complete=?, stopped=? WHERE no=?",
                (
                    reader.consumed,
                    reader.lines,
                    added,
                    bad,
                    len(rows) - added,
                    reader.last[-_EDGE:],
                    json.dumps(fields.as_dict()) if fields else None,
                    1 if final else 0,
                    reader.stopped,
                    no,
                ),
            )
            con.execute("COMMIT")
            outcome.docs += added
            outcome.duplicates += len(rows) - added
            outcome.bad += bad
            self.progress.docs += added
            for _, line_no, message in problems:
                if len(self.report.problems) < PROBLEMS_KEPT:
                    self.report.problems.append((str(path), line_no, message))
            rows, problems, bad = [], [], 0
            last_commit = time.monotonic()

        def take(line_no: int, line: bytes, rec: Any) -> None:
            nonlocal bad
            if not isinstance(rec, dict):
                bad += 1
                problems.append((no, line_no, f"not a JSON object (a {type(rec).__name__})"))
                return
            doc_id = rec.get(id_field)
            if doc_id is None or doc_id == "" or isinstance(doc_id, dict | list | bool):
                bad += 1
                problems.append((no, line_no, f"no document id (field {id_field!r})"))
                return
            rows.append((doc_id if isinstance(doc_id, str) else str(doc_id), no, line_no, line))

        for line_no, line in reader:
            try:
                rec = loads(line)
            except ValueError as exc:
                if not line.strip():
                    continue
                bad += 1
                problems.append((no, line_no, f"not JSON ({exc})"))
                continue
            if fields is None:
                sample.append((line_no, line, rec))
                if len(sample) < SHAPE_SAMPLE:
                    continue
                fields = self._decide(path, sample)
                if fields is None:
                    outcome.action = "failed"
                    break
                id_field = fields.id
                for s_line_no, s_line, s_rec in sample:
                    take(s_line_no, s_line, s_rec)
                sample = []
                continue
            # inlined take() for the common case: a JSON object with a string id
            doc_id = rec.get(id_field) if type(rec) is dict else None
            if type(doc_id) is str and doc_id:
                rows.append((doc_id, no, line_no, line))
            else:
                take(line_no, line, rec)
            if len(rows) >= BATCH_DOCS or (
                (len(rows) & 1023) == 0 and time.monotonic() - last_commit > BATCH_SECONDS
            ):
                flush(False)
            self.tick(reader, len(rows))
        else:
            if fields is None and sample:
                fields = self._decide(path, sample)
                if fields is None:
                    outcome.action = "failed"
                else:
                    id_field = fields.id
                    for s_line_no, s_line, s_rec in sample:
                        take(s_line_no, s_line, s_rec)
        if outcome.action == "failed":
            seen = sorted({k for _, _, rec in sample if isinstance(rec, dict) for k in rec})
            reader.stopped = (
                f"no known corpus shape in its first records (fields: {', '.join(seen) or 'none'}); "
                f"name the id and text fields, or use a known shape: {describe_shapes()}"
            )
            rows = []
        if fields is None and reader.stopped is None and reader.lines and outcome.action != "failed":
            reader.stopped = "no JSON records"
        flush(True)
        reader.close()
        outcome.stopped = reader.stopped
        self.bytes_before += size
        self.tick(None, force=True)
        return outcome

    def _decide(self, path: Path, sample: list[tuple[int, bytes, dict[str, Any]]]) -> FieldMap | None:
        records = [rec for _, _, rec in sample if isinstance(rec, dict)]
        return detect_fields(records, self.overrides)


def _up_to_date(con: sqlite3.Connection, files: list[Path]) -> bool:
    """True when the index is complete and holds exactly these files, none changed since."""
    state = con.execute("SELECT value FROM meta WHERE key='state'").fetchone()
    if state is None or state[0] != "complete":
        return False
    rows = {r[0]: r[1:] for r in con.execute("SELECT path, size, mtime_ns, complete FROM files")}
    if set(rows) != {str(p) for p in files}:
        return False
    for path in files:
        size, mtime_ns, complete = rows[str(path)]
        stat = path.stat()
        if not complete or stat.st_size != size or stat.st_mtime_ns != mtime_ns:
            return False
    return True


def build_index(
    corpora: Sequence[Path],
    db: Path,
    *,
    overrides: Mapping[str, str] | None = None,
    on_progress: Callable[[BuildProgress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> BuildReport:
    """Bring the index at `db` up to date with the corpus files (see the module docstring).

    `on_progress` is called about four times a second; `cancelled` is asked as often, and
    when it answers True the build stops with `IndexCancelled` (what was committed stays;
    the index is not complete, and the next build resumes it)."""
    files: list[Path] = []
    for corpus in corpora:
        files.extend(p.resolve() for p in corpus_files(Path(corpus)))
    files = list(dict.fromkeys(files))
    report = BuildReport(db)
    started = time.monotonic()
    with _build_lock(db):
        con = _connect(db)
        try:
            if _up_to_date(con, files):  # nothing to do: leave the index (and its readers) alone
                report.files = [FileOutcome(str(p), "unchanged") for p in files]
                report.total_docs = int(con.execute("SELECT COALESCE(SUM(docs), 0) FROM files").fetchone()[0])
                report.seconds = time.monotonic() - started
                return report
            con.execute("BEGIN IMMEDIATE")
            con.execute("INSERT OR REPLACE INTO meta VALUES('state', 'building')")
            con.execute(
                "INSERT OR REPLACE INTO meta VALUES('corpora', ?)",
                (json.dumps([str(Path(c).resolve()) for c in corpora]),),
            )
            wanted = {str(p) for p in files}
            for no, path in con.execute("SELECT no, path FROM files").fetchall():
                if path not in wanted:  # a file no longer part of the corpora
                    con.execute("DELETE FROM docs WHERE file=?", (no,))
                    con.execute("DELETE FROM problems WHERE file=?", (no,))
                    con.execute("DELETE FROM files WHERE no=?", (no,))
            con.execute("COMMIT")
            progress = BuildProgress(bytes_total=sum(p.stat().st_size for p in files))
            builder = _Builder(con, report, progress, on_progress, overrides or {}, cancelled)
            for path in files:
                builder.tick(None, force=True)
                report.files.append(builder.index_file(path))
            con.execute("INSERT OR REPLACE INTO meta VALUES('state', 'complete')")
            report.total_docs = int(con.execute("SELECT COALESCE(SUM(docs), 0) FROM files").fetchone()[0])
            report.bytes_read = progress.bytes_done
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
    report.seconds = time.monotonic() - started
    return report
