"""Model validation and configuration presets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from citelens.align import AnswerSpan, Citation, CitationConfig, EvidenceSpan, SourceChunk, SpanCitations


def test_chunk_must_sit_at_its_offsets_in_the_document():
    doc = "0123456789 The chunk text."
    SourceChunk(source_id="d", text="The chunk", doc_char_start=11, doc_char_end=20, document_text=doc)
    with pytest.raises(ValidationError, match="must equal the chunk text"):
        SourceChunk(source_id="d", text="The chunk", doc_char_start=10, doc_char_end=19, document_text=doc)
    with pytest.raises(ValidationError, match="shorter"):
        SourceChunk(source_id="d", text="x", doc_char_start=0, doc_char_end=99, document_text=doc)
    with pytest.raises(ValidationError):
        SourceChunk(source_id="d", text="", doc_char_start=5, doc_char_end=2, document_text=doc)
    SourceChunk(source_id="d", text="anything", doc_char_start=5, doc_char_end=2)  # no document: not checked


def _citation(**kw):
    base = dict(
        score=1.0, source_id="d", source_index=0, candidate_index=0, char_start=0, char_end=3, evidence="abc"
    )
    base.update(kw)
    return Citation(**base)


def test_unsupported_exactly_when_nothing_is_cited():
    span = AnswerSpan(text="a", char_start=0, char_end=1)
    SpanCitations(answer_span=span, citations=[], status="unsupported")
    with pytest.raises(ValidationError):
        SpanCitations(answer_span=span, citations=[], status="partial")
    with pytest.raises(ValidationError):
        SpanCitations(answer_span=span, citations=[_citation()], status="unsupported")


def test_exact_evidence_joins_spans_in_document_order():
    c = _citation(
        evidence="The board met and approved",
        char_end=26,
        evidence_spans=[
            EvidenceSpan(char_start=18, char_end=26, evidence="approved"),
            EvidenceSpan(char_start=0, char_end=9, evidence="The board"),
        ],
    )
    assert c.exact_evidence == "The board ... approved"
    assert _citation().exact_evidence == "abc"
    assert c.model_dump()["exact_evidence"] == "The board ... approved"


def test_models_are_frozen():
    with pytest.raises(ValidationError):
        _citation().score = 2.0


def test_presets():
    assert CitationConfig.balanced() == CitationConfig()
    strict = CitationConfig.strict()
    assert (
        strict.top_k,
        strict.min_answer_coverage,
        strict.supported_answer_coverage,
        strict.min_final_score,
        strict.max_citations_per_source,
        strict.max_retrieval_support,
        strict.require_all_answer_tokens_in_evidence,
    ) == (2, 0.4, 0.7, 0.3, 1, 2, True)
    permissive = CitationConfig.permissive()
    assert (
        permissive.top_k,
        permissive.min_answer_coverage,
        permissive.supported_answer_coverage,
        permissive.min_embedding_similarity,
        permissive.max_citations_per_source,
        permissive.max_retrieval_support,
    ) == (5, 0.15, 0.4, 0.25, 3, 5)
    fast = CitationConfig.fast()
    assert (
        fast.top_k,
        fast.max_candidates_lexical,
        fast.max_candidates_embedding,
        fast.max_candidates_total,
    ) == (1, 50, 50, 100)
    assert CitationConfig.preset("strict") == strict
    with pytest.raises(ValueError):
        CitationConfig.preset("loose")


def test_removed_options_are_rejected():
    with pytest.raises(ValidationError, match="removed"):
        CitationConfig(allow_embedding_only=True)


def test_defaults_match_the_reference():
    cite_right = pytest.importorskip("cite_right")
    ours = CitationConfig().model_dump()
    theirs = cite_right.CitationConfig().model_dump()
    assert ours == theirs


def test_stopwords_match_the_reference():
    pytest.importorskip("cite_right")
    from cite_right.text.content_coverage import STOPWORDS as REF

    from citelens.align.lexical import STOPWORDS

    assert STOPWORDS == REF and len(STOPWORDS) == 103
