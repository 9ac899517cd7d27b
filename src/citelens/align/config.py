"""Alignment settings: thresholds, budgets, scoring weights and the named presets."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

PRESETS = ("strict", "permissive", "fast", "balanced")

_REMOVED_KEYS = frozenset({"allow_embedding_only", "supported_embedding_similarity"})


class CitationWeights(BaseModel):
    """Weights of the final citation score; the maximum is 2.5 without an embedder."""

    model_config = ConfigDict(frozen=True)

    alignment: float = 1.0
    answer_coverage: float = 1.0
    evidence_coverage: float = 0.0
    lexical: float = 0.5
    embedding: float = 0.5


class CitationConfig(BaseModel):
    """Every knob of the pipeline, with the reference's defaults."""

    model_config = ConfigDict(frozen=True)

    top_k: int = 3
    min_final_score: float = 0.0
    min_alignment_score: int = 0
    min_answer_coverage: float = 0.2
    supported_answer_coverage: float = 0.6
    min_embedding_similarity: float = 0.3

    window_size_sentences: int = 1
    window_stride_sentences: int = 1

    max_candidates_lexical: int = 200
    max_candidates_embedding: int = 200
    max_candidates_total: int = 400

    max_citations_per_source: int = 2
    max_retrieval_support: int = 3
    require_all_answer_tokens_in_evidence: bool = False

    weights: CitationWeights = Field(default_factory=CitationWeights)

    match_score: int = 2
    mismatch_score: int = -1
    gap_score: int = -1

    prefer_source_order: bool = True

    multi_span_evidence: bool = False
    multi_span_merge_gap_chars: int = 16
    multi_span_max_spans: int = 5

    @model_validator(mode="before")
    @classmethod
    def _reject_removed_options(cls, data: object) -> object:
        if isinstance(data, dict) and _REMOVED_KEYS.intersection(data):
            raise ValueError(
                "allow_embedding_only and supported_embedding_similarity were removed; "
                "use SpanCitations.retrieval_support for retrieval-only signals"
            )
        return data

    @classmethod
    def strict(cls) -> CitationConfig:
        """Few, strong citations: every answer token must appear in the evidence."""
        return cls(
            top_k=2,
            min_answer_coverage=0.4,
            supported_answer_coverage=0.7,
            min_final_score=0.3,
            max_citations_per_source=1,
            max_retrieval_support=2,
            require_all_answer_tokens_in_evidence=True,
        )

    @classmethod
    def permissive(cls) -> CitationConfig:
        """Lenient thresholds for paraphrased or summarised answers."""
        return cls(
            top_k=5,
            min_answer_coverage=0.15,
            supported_answer_coverage=0.4,
            min_final_score=0.0,
            min_embedding_similarity=0.25,
            max_citations_per_source=3,
            max_retrieval_support=5,
        )

    @classmethod
    def fast(cls) -> CitationConfig:
        """Smaller candidate budgets and a single citation per span."""
        return cls(
            top_k=1,
            max_candidates_lexical=50,
            max_candidates_embedding=50,
            max_candidates_total=100,
            max_citations_per_source=1,
            max_retrieval_support=1,
        )

    @classmethod
    def balanced(cls) -> CitationConfig:
        """The defaults, by name."""
        return cls()

    @classmethod
    def preset(cls, name: str) -> CitationConfig:
        """The preset called ``name`` (one of :data:`PRESETS`)."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        preset: CitationConfig = getattr(cls, name)()
        return preset
