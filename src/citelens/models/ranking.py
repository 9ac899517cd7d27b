"""Retrieval results a report may carry alongside its answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from citelens.models.document_record import Document


class RankedDocument(BaseModel):
    """One retrieved document id at a rank, optionally with its text and score."""

    doc_id: str
    rank: int
    doc: Document | None = None
    score: float | None = None


class RetrievedDocuments(BaseModel):
    """A ranked list for one query in one test collection."""

    query_id: str
    test_collection: str
    run_id: str | None = None
    metadata: dict[str, Any] | None = None
    ranked_docs: list[RankedDocument] = []


def load_retrieved_docs(path: Path) -> list[RetrievedDocuments]:
    with open(path, encoding="utf-8") as f:
        return [RetrievedDocuments.model_validate_json(line) for line in f if line.strip()]


def save_retrieved_docs(path: Path, docs: list[RetrievedDocuments]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(doc.model_dump_json(indent=None) + "\n")
