"""Where the judge gets document text: the report's own embedded documents, then the
document sources (`--docs`, `corpora`; citelens.corpus)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

# field names seen in the wild for a document's id and its text, in order of preference
ID_FIELDS = ("id", "doc_id", "docid", "docno", "_id")
TEXT_FIELDS = ("text", "segment", "body", "contents", "content")


def document_text(doc: Any) -> str | None:
    """The text of one document value: a string, or an object with a text-like field."""
    if isinstance(doc, str):
        return doc
    if isinstance(doc, Mapping):
        for name in TEXT_FIELDS:
            value = doc.get(name)
            if isinstance(value, str):
                title = doc.get("title")
                return f"{title}\n{value}" if isinstance(title, str) and title and name != "text" else value
    return None


def embedded_documents(report: Mapping[str, Any]) -> dict[str, str]:
    """Documents carried by the report: ``documents`` as an id map or a list of objects."""
    docs = report.get("documents")
    out: dict[str, str] = {}
    if isinstance(docs, Mapping):
        for doc_id, doc in docs.items():
            text = document_text(doc)
            if text is not None:
                out[str(doc_id)] = text
    elif isinstance(docs, list):
        for doc in docs:
            if isinstance(doc, Mapping):
                doc_id = next((doc[k] for k in ID_FIELDS if isinstance(doc.get(k), str | int)), None)
                text = document_text(doc)
                if doc_id is not None and text is not None:
                    out[str(doc_id)] = text
    return out


class CorpusDocuments:
    """A ``(doc_id, report) -> text`` lookup over the configured corpora (citelens.corpus;
    relative paths from ``base_dir``), opened on first use; answers are remembered.
    ``prefetch`` asks the sources for many ids in one call (one query of an index, the
    concurrent requests of a service) instead of one call per id."""

    def __init__(
        self, corpora: tuple[str, ...] | list[str], base_dir: Path | None = None, *, chain: Any = None
    ) -> None:
        self.corpora = list(corpora)
        self.base_dir = base_dir
        #: the sources, opened on first use; or given already open (`chain`: a session's
        #: `SourceChain`, shared with its unknown_document check, which closes it)
        self._chain: Any = chain
        self._seen: dict[str, str | None] = {}

    def _source(self) -> Any:
        if self._chain is None:
            from citelens.corpus import open_sources

            self._chain = open_sources(self.corpora, self.base_dir)
        return self._chain

    def version(self) -> str | None:
        """The sources' version (`SourceChain.version`)."""
        version = getattr(self._source(), "version", None)
        return version() if version is not None else None

    def prefetch(self, ids: Iterable[str]) -> None:
        wanted = [i for i in dict.fromkeys(ids) if i not in self._seen]
        if not wanted:
            return
        answer = self._source().get_many(wanted)
        for doc_id in wanted:
            # an id no source could answer for (a partial index, a service that is down) is
            # not asked again one at a time: its citations are unchecked for this run
            doc = answer.documents.get(doc_id)
            self._seen[doc_id] = doc.text if doc is not None else None

    def __call__(self, doc_id: str, report: Mapping[str, Any]) -> str | None:
        if doc_id not in self._seen:
            from citelens.corpus import lookup_one

            doc, _why = lookup_one(self._source(), doc_id)
            self._seen[doc_id] = doc.text if doc is not None else None
        return self._seen[doc_id]
