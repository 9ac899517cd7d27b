"""Reading corpus files line by line: plain, gzip or zstd JSONL, a file or a folder of them.

A reader knows how many (uncompressed) bytes and lines it has consumed, so a build can stop
and later resume exactly there, and how far into the file on disk it is, for progress. A
compressed stream that ends early (a truncated download) ends the lines and says where.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

#: file names read as corpora when a folder is given
CORPUS_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst", ".jsonl.zstd", ".json.gz", ".ndjson")
_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


class CorpusFileError(Exception):
    """A corpus path that cannot be read at all (missing, unreadable, unsupported)."""


#: how deep and how wide a corpus folder is searched: a folder of corpus files is small and
#: shallow, and `corpora = ["/usr"]` must not walk 100,000 files on the first check
#: (raise them with these environment variables for an unusual layout)
WALK_LIMITS = {"CITELENS_CORPUS_WALK_DEPTH": 8, "CITELENS_CORPUS_WALK_ENTRIES": 20_000}


def _limit(name: str) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else WALK_LIMITS[name]


@dataclass(frozen=True)
class WalkProgress:
    """How far a walk of a corpus folder is: folders read, entries seen, corpus files found
    (`done`: the walk ended, with files found or with an error)."""

    root: Path
    folders: int
    entries: int
    files: int
    limit: int  # the entry limit the walk stops at
    done: bool = False


#: who is told how a walk goes (a terminal's progress line: `cli.walk_progress`)
_observers: list[Callable[[WalkProgress], None]] = []


@contextmanager
def observe_walks(observer: Callable[[WalkProgress], None]) -> Iterator[None]:
    """Tell `observer` of every corpus folder walk (after each folder, and at the end) while
    the block runs."""
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.remove(observer)


def _tell(progress: WalkProgress) -> None:
    for observer in list(_observers):
        observer(progress)


def _walk(path: Path) -> list[Path]:
    """The corpus files under a folder, symbolic links to folders not followed, within the limits."""
    max_depth, max_entries = _limit("CITELENS_CORPUS_WALK_DEPTH"), _limit("CITELENS_CORPUS_WALK_ENTRIES")
    found: list[Path] = []
    seen = folders = 0
    todo = [(path, 0)]
    try:
        while todo:
            folder, depth = todo.pop()
            seen = _walk_folder(path, folder, depth, seen, max_depth, max_entries, todo, found)
            folders += 1
            if _observers:
                _tell(WalkProgress(path, folders, seen, len(found), max_entries))
    finally:
        if _observers:
            _tell(WalkProgress(path, folders, seen, len(found), max_entries, done=True))
    return sorted(found)


def _walk_folder(
    path: Path,
    folder: Path,
    depth: int,
    seen: int,
    max_depth: int,
    max_entries: int,
    todo: list[tuple[Path, int]],
    found: list[Path],
) -> int:
    """Read one folder of a walk: its sub-folders onto `todo`, its corpus files onto
    `found`; the entries seen so far."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return seen  # an unreadable sub-folder holds nothing we can read anyway
    seen += len(entries)
    if seen > max_entries:
        raise CorpusFileError(
            f"{path}: stopped looking for corpus files after {max_entries:,} folder entries; is this "
            "the corpus folder? (name the corpus files or their own folder, or raise the limit with "
            "CITELENS_CORPUS_WALK_ENTRIES=N)"
        )
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if depth + 1 > max_depth:
                raise CorpusFileError(
                    f"{path}: corpus files are looked for at most {max_depth} folders deep, and "
                    f"{entry.path} is deeper (raise the limit with CITELENS_CORPUS_WALK_DEPTH=N)"
                )
            todo.append((Path(entry.path), depth + 1))
        elif entry.name.endswith(CORPUS_SUFFIXES) and entry.is_file():
            found.append(Path(entry.path))
    return seen


def corpus_files(path: Path) -> list[Path]:
    """The corpus files at `path`: the file itself, or a folder's JSONL files (recursively,
    sorted, within `WALK_LIMITS`)."""
    if path.is_dir():
        found = _walk(path)
        if not found:
            raise CorpusFileError(
                f"{path}: no corpus files in this folder (expected {', '.join(CORPUS_SUFFIXES)})"
            )
        return found
    if not path.exists():
        raise CorpusFileError(f"{path}: no such file or folder")
    return [path]


def compression_of(path: Path) -> str | None:
    """'gzip', 'zstd' or None, from the file's first bytes (names can lie)."""
    with open(path, "rb") as f:
        head = f.read(4)
    if head.startswith(_GZIP_MAGIC):
        return "gzip"
    if head.startswith(_ZSTD_MAGIC):
        return "zstd"
    return None


class LineReader:
    """Lines of one corpus file with their numbers; `consumed` bytes and `lines` so far."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kind = compression_of(path)
        self.raw: BinaryIO = open(path, "rb")
        self.stream: BinaryIO
        if self.kind == "gzip":
            self.stream = gzip.GzipFile(fileobj=self.raw, mode="rb")  # type: ignore[assignment]
        elif self.kind == "zstd":
            try:
                import zstandard
            except ImportError as exc:
                self.raw.close()
                raise CorpusFileError(
                    f"{path}: a zstd-compressed corpus needs the zstandard package (pip install 'citelens[zstd]')"
                ) from exc
            reader = zstandard.ZstdDecompressor().stream_reader(self.raw, read_across_frames=True)
            self.stream = io.BufferedReader(reader, 1 << 20)
        else:
            self.stream = self.raw
        self.consumed = 0  # uncompressed bytes handed out (or skipped)
        self.lines = 0  # lines handed out (or skipped)
        self.stopped: str | None = None  # why the stream ended before its end, if it did
        self.last = b""  # the last line handed out

    def __enter__(self) -> LineReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.stream is not self.raw:
            self.stream.close()
        self.raw.close()

    def disk_position(self) -> int:
        """How far into the file on disk the reader is (compressed bytes for a compressed file)."""
        try:
            return self.raw.tell()
        except (OSError, ValueError):
            return 0

    def skip_to(self, offset: int, lines: int) -> bytes:
        """Continue from `offset` bytes / `lines` lines already read; returns the 4 KiB before it."""
        if self.kind is None:
            self.consumed = min(offset, self.path.stat().st_size)
            start = max(0, self.consumed - 4096)
            self.raw.seek(start)
            tail = self.raw.read(self.consumed - start)
        else:
            left = offset
            window = b""
            while left > 0:
                chunk = self._read_checked(min(left, 1 << 20))
                if not chunk:
                    break
                left -= len(chunk)
                window = (window + chunk)[-4096:]
            self.consumed = offset - left
            tail = window
        self.lines = lines
        self.last = tail
        return tail

    def _read_checked(self, size: int) -> bytes:
        try:
            return self.stream.read(size)
        except (EOFError, zlib.error, OSError) as exc:
            self.stopped = f"the compressed data ends early or is damaged ({exc})"
            return b""
        except Exception as exc:  # zstandard.ZstdError and friends
            self.stopped = f"the compressed data is damaged ({exc})"
            return b""

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        """(line number, line bytes) for each complete or final line."""
        stream = self.stream
        try:
            for line in stream:
                self.lines += 1
                self.consumed += len(line)
                self.last = line
                yield self.lines, line
        except (EOFError, zlib.error, OSError) as exc:
            self.stopped = f"the compressed data ends early after line {self.lines} ({exc})"
        except Exception as exc:  # zstandard.ZstdError: a truncated or damaged frame
            if type(exc).__name__ != "ZstdError":
                raise
            self.stopped = f"the compressed data ends early after line {self.lines} ({exc})"
