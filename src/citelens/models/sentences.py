"""The three report-sentence shapes, one per citation representation.

The class a sentence gets depends on how its citations are written: a list of doc-id
strings (neuclir), a `{doc_id: confidence}` map (ragtime) or positions into the report's
`references` (rag24). Specs name these shapes by tag; the tag table lives here so that
specs stay plain data.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from pydantic import BaseModel


class NeuclirReportSentence(BaseModel):
    """Citations are doc ids, most important first."""

    citations: list[str] | None = None
    text: str
    metadata: dict[str, Any] | None = None
    evaldata: dict[str, Any] | None = None


class RagtimeReportSentence(BaseModel):
    """Citations map a doc id to a confidence; higher means more important."""

    citations: dict[str, float] | None = None
    text: str
    metadata: dict[str, Any] | None = None
    evaldata: dict[str, Any] | None = None


class Rag24ReportSentence(BaseModel):
    """Citations are zero-based positions into the report's `references`."""

    citations: list[int] | None = None
    text: str
    metadata: dict[str, Any] | None = None
    evaldata: dict[str, Any] | None = None


ReportSentence: TypeAlias = RagtimeReportSentence | NeuclirReportSentence | Rag24ReportSentence

SENTENCE_CLASSES: dict[str, type[ReportSentence]] = {
    "rag24": Rag24ReportSentence,
    "ragtime": RagtimeReportSentence,
    "neuclir": NeuclirReportSentence,
}
_TAGS: dict[type, str] = {cls: tag for tag, cls in SENTENCE_CLASSES.items()}


def sentence_class_for(tag: str) -> type[ReportSentence]:
    """The sentence class for a spec's `sentence_type` tag."""
    try:
        return SENTENCE_CLASSES[tag]
    except KeyError:
        raise KeyError(f"unknown sentence_type tag {tag!r}; known: {sorted(SENTENCE_CLASSES)}") from None


def tag_of_sentence(sentence: object) -> str | None:
    """The tag of a sentence instance, or None for anything else."""
    return _TAGS.get(type(sentence))
