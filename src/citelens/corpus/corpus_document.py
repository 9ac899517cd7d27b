"""What a document source answers: documents, and whether it could answer at all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    """A document as a source gave it.

    `origin` says where it came from (`corpus.jsonl:17`, `https://host/v1/index`, `report`);
    `stands_in_for` is set when this is an MS MARCO v2.1 parent document shown in place of
    the segment id that was asked for (and everything that shows it says so). `file` and
    `line` (1-based) say where its record is, when it came from a corpus file, so an editor
    can open it there.
    """

    id: str
    text: str
    title: str | None = None
    url: str | None = None
    origin: str = ""
    stands_in_for: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    file: str | None = None
    line: int | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "title": self.title, "url": self.url, "origin": self.origin}
        if self.stands_in_for is not None:
            out["stands_in_for"] = self.stands_in_for
        out["text"] = self.text
        return out


@dataclass(slots=True)
class Lookup:
    """The answer of one `get_many` call.

    `documents` holds every id the source could answer for: its document, or None when the
    source is sure it does not have it. `unanswered` holds the ids it could not answer for,
    each with the reason (a partial index, an unreachable service, ...).
    """

    documents: dict[str, CorpusDocument | None] = field(default_factory=dict)
    unanswered: dict[str, str] = field(default_factory=dict)

    def found(self) -> dict[str, CorpusDocument]:
        return {k: v for k, v in self.documents.items() if v is not None}

    def missing(self) -> list[str]:
        """Ids the source answered for and does not have."""
        return [k for k, v in self.documents.items() if v is None]
