"""Where a cited document's text comes from, for hovers and go-to-definition.

Sources are tried in order: the report itself (its `documents` map, then documents
embedded in its `ranking`), then any extra sources the server was given (the seam for
`citelens.corpus` once configured corpora are indexed: `add_source(lookup)`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("citelens_server")


@dataclass(frozen=True)
class CitedDocument:
    doc_id: str
    text: str
    title: str | None
    origin: str  # where it came from, for the reader: "documents of this report", a corpus path
    pointer: str | None = None  # where it sits in the report, when embedded


Lookup = Callable[[str], "CitedDocument | None"]
_extra_sources: list[Lookup] = []


def add_source(lookup: Lookup) -> None:
    """Register a document source consulted after the report's own documents."""
    _extra_sources.append(lookup)


def report_value(doc: Any, offset: int) -> tuple[dict | None, int]:
    """(the decoded report holding `offset`, its start offset), or (None, 0)."""
    node = doc.node_at(offset)
    if node is None:
        return None, 0
    root = node.parents[-1] if node.parents else node
    try:
        value = json.loads(doc.text[root.start : root.end])
    except ValueError:
        return None, 0
    return (value, root.start) if isinstance(value, dict) else (None, 0)


def _embedded(report: dict, doc_id: str) -> CitedDocument | None:
    documents = report.get("documents")
    if isinstance(documents, dict):
        entry = documents.get(doc_id)
        if isinstance(entry, dict) and isinstance(entry.get("text"), str):
            title = entry.get("title") if isinstance(entry.get("title"), str) else None
            pointer = "/documents/" + doc_id.replace("~", "~0").replace("/", "~1")
            return CitedDocument(doc_id, entry["text"], title, "the report's documents", pointer)
    ranking = report.get("ranking")
    lists = ranking if isinstance(ranking, list) else []
    for i, item in enumerate(lists):
        if not isinstance(item, dict):
            continue
        ranked = item.get("ranked_docs") if "ranked_docs" in item else [item]
        for j, entry in enumerate(ranked if isinstance(ranked, list) else []):
            if not isinstance(entry, dict) or entry.get("doc_id") != doc_id:
                continue
            body = entry.get("doc")
            if isinstance(body, dict) and isinstance(body.get("text"), str):
                title = body.get("title") if isinstance(body.get("title"), str) else None
                pointer = (
                    f"/ranking/{i}/ranked_docs/{j}/doc" if "ranked_docs" in item else f"/ranking/{i}/doc"
                )
                return CitedDocument(doc_id, body["text"], title, "the report's ranking", pointer)
    return None


def find_document(report: dict | None, doc_id: str) -> CitedDocument | None:
    if report is not None:
        found = _embedded(report, doc_id)
        if found is not None:
            return found
    for lookup in _extra_sources:
        try:
            found = lookup(doc_id)
        except Exception:
            log.exception("document source failed for %s", doc_id)
            continue
        if found is not None:
            return found
    return None
