"""Sources on this machine: the embedded index, corpus files (through their index), a report's own documents."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from citelens.corpus.cache_dir import default_index_path
from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.index_build import IndexBusy, build_index
from citelens.corpus.index_store import IndexReader, is_index_file
from citelens.corpus.reading import CorpusFileError, corpus_files

#: corpora up to this size (on disk) are indexed on first use; larger ones need `citelens index`
AUTO_INDEX_BYTES = 64 * 1024 * 1024


def _answer_partly(found: Lookup, reason: str) -> Lookup:
    """Keep what was found; every miss becomes unanswered with `reason`."""
    out = Lookup()
    for doc_id, doc in found.documents.items():
        if doc is None:
            out.unanswered[doc_id] = reason
        else:
            out.documents[doc_id] = doc
    return out


def files_version(paths: Iterable[Path]) -> str | None:
    """Size and modification time of each file (None if one cannot be read): what says,
    without reading them, that the documents behind a source are unchanged."""
    try:
        return "|".join(f"{p}:{st.st_size}:{st.st_mtime_ns}" for p in paths for st in (p.stat(),))
    except OSError:
        return None


class IndexSource:
    """An index built by `citelens index`; it answers "not here" only when the index is complete and current."""

    def __init__(self, path: Path, label: str | None = None) -> None:
        self.path = Path(path)
        self.label = label or f"index {self.path}"
        self._reader: IndexReader | None = None
        self._state: tuple[float, str | None] = (0.0, None)

    def describe(self) -> str:
        return self.label

    def version(self) -> str | None:
        """What the index holds, read from its own tables (the files it read, how far, how
        many documents) and whether it can say "absent": not the file's modification time,
        which SQLite changes whenever it folds its journal in, documents or not."""
        reader = self._open()
        if isinstance(reader, str):
            return f"unusable: {reader}"
        try:
            rows = reader.con.execute(
                "SELECT path, size, mtime_ns, consumed, docs, complete, stopped FROM files ORDER BY no"
            ).fetchall()
            state = reader.meta().get("state")
        except sqlite3.Error:
            return None
        held = repr((state, rows, self.incomplete_reason())).encode("utf-8", "surrogatepass")
        return hashlib.sha256(held).hexdigest()

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _open(self) -> IndexReader | str:
        if self._reader is not None:
            return self._reader
        if not self.path.exists():
            return f"no index at {self.path} (build it with `citelens index`)"
        if not is_index_file(self.path):
            return f"{self.path} is not an index built by `citelens index`"
        try:
            self._reader = IndexReader(self.path)
            self._reader.meta()
        except sqlite3.Error as exc:
            self._reader = None
            return f"cannot read the index {self.path} ({exc})"
        return self._reader

    def incomplete_reason(self) -> str | None:
        """Why this index cannot say a document is absent (None: it can); re-checked every 2 s."""
        checked_at, reason = self._state
        if time.monotonic() - checked_at < 2.0 and checked_at:
            return reason
        reader = self._open()
        if isinstance(reader, str):
            reason = reader
        else:
            reason = self._find_incomplete(reader)
        self._state = (time.monotonic(), reason)
        return reason

    def _find_incomplete(self, reader: IndexReader) -> str | None:
        try:
            meta = reader.meta()
            files = reader.files(fresh=True)
        except sqlite3.Error as exc:
            return f"cannot read the index {self.path} ({exc})"
        if meta.get("state") != "complete":
            return "the index is still being built, or its build was interrupted (run `citelens index` again to finish it)"
        for indexed in files.values():
            if not indexed.complete:
                return f"{indexed.path} is only partly indexed (run `citelens index` again to finish it)"
            if indexed.stopped:
                return f"{indexed.path}: indexing stopped at line {indexed.lines}: {indexed.stopped}"
            try:
                stat = Path(indexed.path).stat()
            except OSError:
                continue  # the corpus moved away; the index still holds what it had
            if stat.st_size != indexed.size or stat.st_mtime_ns != indexed.mtime_ns:
                return f"{indexed.path} changed since it was indexed (run `citelens index` to bring the index up to date)"
        return None

    def get_many(self, ids: Iterable[str]) -> Lookup:
        wanted = list(dict.fromkeys(ids))
        reader = self._open()
        if isinstance(reader, str):
            return Lookup(unanswered=dict.fromkeys(wanted, reader))
        try:
            found = reader.get_many(wanted)
        except sqlite3.Error as exc:
            return Lookup(unanswered=dict.fromkeys(wanted, f"cannot read the index {self.path} ({exc})"))
        reason = self.incomplete_reason() if found.missing() else None
        return found if reason is None else _answer_partly(found, reason)


class CorpusFileSource:
    """A corpus file or folder, looked up through its index in the user's cache.

    A small corpus is indexed on first use; a large one must be indexed with `citelens index`
    first (until then its misses are unanswered, and its index, if partial, still finds what it has).
    """

    def __init__(self, path: Path, overrides: Mapping[str, str] | None = None) -> None:
        self.path = Path(path)
        self.overrides = dict(overrides or {})
        self.db = default_index_path([self.path])
        self._index = IndexSource(self.db, label=f"corpus {self.path}")
        self._prepared: str | bool | None = False  # False: not yet; None: ready; str: why not

    def describe(self) -> str:
        return f"corpus {self.path}"

    def version(self) -> str | None:
        """The corpus files' and their index's (which grows when a big corpus is indexed)."""
        try:
            files = files_version(corpus_files(self.path))
        except CorpusFileError:
            return None
        index = self._index.version() if self.db.exists() else "no index"
        return None if files is None or index is None else f"{files}|{index}"

    def close(self) -> None:
        self._index.close()

    def _prepare(self) -> str | None:
        try:
            files = corpus_files(self.path)
            size = sum(p.stat().st_size for p in files)
        except (CorpusFileError, OSError) as exc:
            return str(exc)
        if size <= AUTO_INDEX_BYTES:
            with contextlib.suppress(IndexBusy):  # someone else is building it: read what is there
                try:
                    build_index([self.path], self.db, overrides=self.overrides)
                except (CorpusFileError, OSError, sqlite3.Error) as exc:
                    return f"cannot index {self.path} ({exc})"
            return None
        if not self.db.exists():
            return f"{self.path} is not indexed yet (run `citelens index {self.path}`)"
        return None

    def get_many(self, ids: Iterable[str]) -> Lookup:
        wanted = list(dict.fromkeys(ids))
        if self._prepared is False:
            self._prepared = self._prepare()
        if isinstance(self._prepared, str):
            return Lookup(unanswered=dict.fromkeys(wanted, self._prepared))
        return self._index.get_many(wanted)


class EmbeddedSource:
    """The documents a report carries (`documents`, a ranking's `doc`s): found or not, never unsure."""

    def __init__(
        self, documents: Mapping[str, CorpusDocument], label: str = "the report's own documents"
    ) -> None:
        self.documents = dict(documents)
        self.label = label

    def describe(self) -> str:
        return self.label

    def close(self) -> None:
        pass

    def get_many(self, ids: Iterable[str]) -> Lookup:
        return Lookup(documents={i: self.documents.get(i) for i in ids})


class BrokenSource:
    """A configured source that cannot be used at all; it says why for every id."""

    def __init__(self, spec: str, reason: str) -> None:
        self.spec = spec
        self.reason = reason

    def describe(self) -> str:
        return self.spec

    def close(self) -> None:
        pass

    def get_many(self, ids: Iterable[str]) -> Lookup:
        return Lookup(unanswered=dict.fromkeys(ids, self.reason))
