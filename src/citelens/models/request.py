"""A topic (request) that reports answer; `request_id` is its canonical id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel


class Request(BaseModel):
    """A topic; `topic_id` and `narrative_id` always equal `request_id` after loading."""

    request_id: str
    title: str
    collection_ids: list[str] | None = None
    background: str | None = None
    original_background: str | None = None
    problem_statement: str | None = None
    limit: int | None = None
    word_limit: int | None = None
    topic_id: str | None = None
    narrative_id: str | None = None

    def model_post_init(self, __context: Any) -> None:
        for name in ("topic_id", "narrative_id"):
            given = getattr(self, name)
            if given is not None and str(given) != str(self.request_id):
                raise ValueError(
                    f"Inconsistent topic identifiers: request_id={self.request_id}, {name}={given}"
                )
            setattr(self, name, self.request_id)


def load_requests_from_file(file: Path) -> list[Request]:
    """Requests of a JSONL file (one object per line with `request_id` and `title`)."""
    with open(file, encoding="utf-8") as f:
        return [Request.model_validate(json.loads(line)) for line in f if line.strip()]


def load_requests_from_irds(ir_dataset: Any) -> list[Request]:
    """Requests from an ir_datasets dataset object (its queries' default text as title)."""
    collection_id = ir_dataset.dataset_id()
    return [
        Request.model_validate(
            {"title": q.default_text(), "request_id": q.query_id, "collection_ids": [collection_id]}
        )
        for q in ir_dataset.queries_iter()
    ]
