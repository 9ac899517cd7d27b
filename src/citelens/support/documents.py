"""Where the judge gets document text: the report's own embedded documents, then the
document sources (`--docs`, `corpora`; citelens.corpus)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def corpus_document_lookup(
    corpora: tuple[str, ...] | list[str], base_dir: Path | None = None
) -> Callable[[str, Mapping[str, Any]], str | None]:
    """A ``(doc_id, report) -> text`` lookup over the configured corpora (citelens.corpus;
    relative paths from ``base_dir``), opened on first use; answers are remembered."""
    chain = None
    seen: dict[str, str | None] = {}

    def lookup(doc_id: str, report: Mapping[str, Any]) -> str | None:
        nonlocal chain
        if doc_id in seen:
            return seen[doc_id]
        if chain is None:
            from citelens.corpus import open_sources

            chain = open_sources(list(corpora), base_dir)
        from citelens.corpus import lookup_one

        doc, _why = lookup_one(chain, doc_id)
        seen[doc_id] = doc.text if doc is not None else None
        return seen[doc_id]

    return lookup
