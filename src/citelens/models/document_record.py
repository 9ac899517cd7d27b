"""A source document as reports cite it (NeuCLIR/RAGTIME/MS MARCO style records)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from citelens.models.segmentation import length_limited_chunks, line_sentences, paragraphs

_log = logging.getLogger(__name__)


class Document(BaseModel):
    """A document; keys beyond the known ones are kept (collections differ widely)."""

    model_config = ConfigDict(extra="allow")

    id: str
    text: str
    title: str | None = None
    url: str | None = None
    # RAGTIME
    metadata: dict[str, Any] | None = None
    created: str | None = None
    # older NeuCLIR records
    cc_file: str | None = None
    time: str | None = None
    lang: str | None = None

    _chunks: list[str] | None = PrivateAttr(default=None)
    _chunk_limit: int | None = PrivateAttr(default=None)

    def get_text(self) -> str:
        """The body, preceded by the title and a space when there is a title."""
        return self.text if self.title is None else f"{self.title} {self.text}"

    def get_document_text(self) -> str:
        return self.get_text()

    def get_paragraphs(self) -> list[str]:
        return paragraphs(self.get_text())

    def get_sentences(self) -> list[str]:
        """One sentence per non-blank line (see `citelens.models.segmentation`)."""
        return line_sentences(self.get_text())

    def get_text_chunks(self, limit: int) -> list[str]:
        """The text in chunks of at most `limit` characters on sentence boundaries (cached)."""
        if not self._chunks or limit != self._chunk_limit:
            self._chunks = length_limited_chunks(self.get_sentences(), limit=limit)
            self._chunk_limit = limit
            if len(self._chunks) > 1:
                _log.debug("document %s split into %d chunks of length %d", self.id, len(self._chunks), limit)
        return self._chunks


def load_documents(documents_path: Path) -> list[Document]:
    """All documents of a JSONL file (one JSON object per line; blank lines skipped)."""
    with open(documents_path, encoding="utf-8") as f:
        return [Document.model_validate_json(line) for line in f if line.strip()]


def stream_documents(documents_path: Path, wanted_doc_ids: set[str] | None = None) -> Iterator[Document]:
    """Documents of a JSONL file, optionally only the wanted ids; bad lines are logged and skipped."""
    with open(documents_path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            line = line.strip()
            if not line:
                continue
            if wanted_doc_ids and not any(doc_id in line for doc_id in wanted_doc_ids):
                continue  # cheap text filter before parsing
            try:
                raw = json.loads(line)
                if wanted_doc_ids and raw.get("id") not in wanted_doc_ids:
                    continue
                yield Document.model_validate(raw)
            except (ValueError, ValidationError, AttributeError) as exc:
                _log.warning("%s:%d: skipped, not a document: %s", documents_path, lineno, exc)
