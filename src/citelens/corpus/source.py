"""The one interface every document source implements, and the chain that asks them in order."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Protocol, runtime_checkable

from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.msmarco import parent_document_id


@runtime_checkable
class DocumentSource(Protocol):
    """Something that can look documents up by id."""

    def get_many(self, ids: Iterable[str]) -> Lookup:
        """Every asked id in `documents` (a document, or None: not here) or in `unanswered` (why not)."""
        ...

    def describe(self) -> str:
        """One line naming the source for people (never a secret)."""
        ...

    def close(self) -> None: ...


class SourceChain:
    """Sources asked in order: an id is looked up in the next source only while it is not found.

    An id is reported absent (None) only when every source answered for it; if one could not,
    the id is unanswered with that source's reason. An MS MARCO v2.1 segment nobody has is
    answered by its parent document when one of the sources has that, marked `stands_in_for`.
    """

    def __init__(self, sources: Sequence[DocumentSource]) -> None:
        self.sources = list(sources)
        # A session shares one chain between worker threads (checks, hovers) and closes it
        # from the event loop when settings change. Lookups take turns (a source's SQLite
        # connection is not for two threads at once), and a close that comes during one is
        # done by that lookup when it ends: closing a connection under a running query
        # crashed the server.
        self._turn = threading.Lock()
        self._state = threading.Lock()
        self._busy = 0
        self._close_when_idle = False

    def describe(self) -> str:
        return " then ".join(s.describe() for s in self.sources) or "no document sources"

    def close(self) -> None:
        """Close every source now, or when the lookup under way ends (never blocks)."""
        with self._state:
            if self._busy:
                self._close_when_idle = True
                return
        for source in self.sources:
            source.close()

    @contextmanager
    def _in_use(self) -> Iterator[None]:
        with self._state:
            self._busy += 1
        try:
            with self._turn:
                yield
        finally:
            with self._state:
                self._busy -= 1
                close = self._close_when_idle and not self._busy
                if close:
                    self._close_when_idle = False
            if close:
                for source in self.sources:
                    source.close()

    def version(self) -> str | None:
        """What changes when any source's documents may have changed; None when a source
        cannot tell (a service, ir_datasets): its documents are then compared one by one."""
        with self._in_use():
            return self._version()

    def _version(self) -> str | None:
        parts = []
        for source in self.sources:
            version = getattr(source, "version", None)
            part = version() if version is not None else None
            if part is None:
                return None
            parts.append(part)
        return "\n".join(parts)

    def _ask_all(self, ids: list[str]) -> Lookup:
        out = Lookup()
        pending = list(dict.fromkeys(ids))
        reasons: dict[str, str] = {}
        for source in self.sources:
            if not pending:
                break
            answer = source.get_many(pending)
            still: list[str] = []
            for doc_id in pending:
                doc = answer.documents.get(doc_id)
                if doc is not None:
                    out.documents[doc_id] = doc
                    continue
                if doc_id in answer.unanswered and doc_id not in reasons:
                    reasons[doc_id] = f"{source.describe()}: {answer.unanswered[doc_id]}"
                still.append(doc_id)
            pending = still
        for doc_id in pending:
            if doc_id in reasons:
                out.unanswered[doc_id] = reasons[doc_id]
            else:
                out.documents[doc_id] = None
        return out

    def get_many(self, ids: Iterable[str]) -> Lookup:
        with self._in_use():
            return self._get_many(ids)

    def _get_many(self, ids: Iterable[str]) -> Lookup:
        out = self._ask_all(list(ids))
        lost = [i for i in [*out.missing(), *out.unanswered] if parent_document_id(i)]
        parents = {i: parent_document_id(i) for i in lost}
        if parents:
            answer = self._ask_all([p for p in parents.values() if p])
            for segment_id, parent_id in parents.items():
                doc = answer.documents.get(parent_id or "")
                if doc is not None:
                    out.documents[segment_id] = replace(doc, stands_in_for=segment_id)
                    out.unanswered.pop(segment_id, None)
        return out


def lookup_one(source: DocumentSource, doc_id: str) -> tuple[CorpusDocument | None, str | None]:
    """One id: its document (or None) and, when the source could not answer, why."""
    answer = source.get_many([doc_id])
    return answer.documents.get(doc_id), answer.unanswered.get(doc_id)
