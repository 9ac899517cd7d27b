"""Public data models of the alignment engine (the Cite-Right shapes).

All models are frozen pydantic models so that results can be shared, hashed into
caches and serialised with ``model_dump_json`` at the edges (CLI, server). The hot
path builds them with ``model_construct`` once the values are known to be valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

Status = Literal["supported", "partial", "unsupported"]


class SourceDocument(BaseModel):
    """A whole document; offsets of its citations are offsets into ``text``."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    metadata: Mapping[str, Any] = Field(default_factory=dict)


class Segment(BaseModel):
    """One sentence-like piece of a document, with its offsets in that document."""

    model_config = ConfigDict(frozen=True)

    text: str
    doc_char_start: int
    doc_char_end: int


class SourceChunk(BaseModel):
    """An excerpt of a larger document, placed at ``doc_char_start`` in it.

    When ``document_text`` is given it must contain the chunk at exactly those
    offsets, so that evidence cut from the full document equals the chunk text.
    """

    model_config = ConfigDict(frozen=True)

    source_id: str
    text: str
    doc_char_start: int
    doc_char_end: int
    metadata: Mapping[str, Any] = Field(default_factory=dict)
    document_text: str | None = None
    source_index: int | None = None

    @model_validator(mode="after")
    def _chunk_sits_in_document(self) -> SourceChunk:
        if self.document_text is None:
            return self
        if self.doc_char_start < 0 or self.doc_char_end < self.doc_char_start:
            raise ValueError("chunk offsets must be a non-negative, ordered range")
        if self.doc_char_end > len(self.document_text):
            raise ValueError("document_text is shorter than doc_char_end")
        if self.document_text[self.doc_char_start : self.doc_char_end] != self.text:
            raise ValueError("document_text[doc_char_start:doc_char_end] must equal the chunk text")
        return self


class AnswerSpan(BaseModel):
    """One unit of the answer; ``answer[char_start:char_end] == text``."""

    model_config = ConfigDict(frozen=True)

    text: str
    char_start: int
    char_end: int
    kind: Literal["sentence", "clause", "paragraph"] = "sentence"
    paragraph_index: int | None = None
    sentence_index: int | None = None


class EvidenceSpan(BaseModel):
    """A contiguous piece of evidence at absolute offsets of the source document."""

    model_config = ConfigDict(frozen=True)

    char_start: int
    char_end: int
    evidence: str


class Alignment(BaseModel):
    """A Smith-Waterman local alignment: target (source) and query (answer) token ranges."""

    model_config = ConfigDict(frozen=True)

    score: int
    token_start: int
    token_end: int
    query_start: int = 0
    query_end: int = 0
    matches: int = 0
    match_blocks: list[tuple[int, int]] = Field(default_factory=list)


class Citation(BaseModel):
    """Evidence for one answer span in one source passage.

    ``char_start``/``char_end`` enclose all ``evidence_spans``; in multi-span mode the
    enclosing ``evidence`` may contain unmatched bridge text, ``exact_evidence`` does not.
    """

    model_config = ConfigDict(frozen=True)

    score: float
    source_id: str
    source_index: int
    candidate_index: int
    char_start: int
    char_end: int
    evidence: str
    evidence_spans: list[EvidenceSpan] = Field(default_factory=list)
    components: Mapping[str, float] = Field(default_factory=dict)

    @computed_field(return_type=str)  # type: ignore[prop-decorator]  # pydantic's documented form
    @property
    def exact_evidence(self) -> str:
        if not self.evidence_spans:
            return self.evidence
        spans = sorted(self.evidence_spans, key=lambda s: (s.char_start, s.char_end))
        return " ... ".join(s.evidence for s in spans)


class RetrievalSupport(BaseModel):
    """A passage that was retrieved for the span but could not be localised as evidence."""

    model_config = ConfigDict(frozen=True)

    retrieval_score: float
    source_id: str
    source_index: int
    candidate_index: int
    passage_char_start: int
    passage_char_end: int
    passage_text: str
    embedding_score: float
    lexical_score: float


class SpanCitations(BaseModel):
    """Everything found for one answer span; ``unsupported`` exactly when nothing is cited."""

    model_config = ConfigDict(frozen=True)

    answer_span: AnswerSpan
    citations: list[Citation]
    retrieval_support: list[RetrievalSupport] = Field(default_factory=list)
    status: Status

    @model_validator(mode="after")
    def _status_matches_citations(self) -> SpanCitations:
        if self.citations and self.status == "unsupported":
            raise ValueError("unsupported status requires citations to be empty")
        if not self.citations and self.status != "unsupported":
            raise ValueError("supported or partial status requires at least one citation")
        return self


class AlignmentMetrics(BaseModel):
    """Timings and counts of one ``align`` call, passed to ``on_metrics``."""

    model_config = ConfigDict(frozen=True)

    total_time_ms: float
    num_answer_spans: int
    num_candidates: int
    num_alignments: int
    embedding_time_ms: float = 0.0
    alignment_time_ms: float = 0.0
