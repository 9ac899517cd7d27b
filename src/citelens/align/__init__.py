"""Citation evidence: which words of a cited source support an answer sentence.

A compatible implementation of the Cite-Right alignment (Smith-Waterman over word
tokens) in Python + numpy. Importing this package is cheap: the engine, numpy and
the pydantic models load on first use of a name below.

    from citelens.align import align_citations, SourceDocument
    results = align_citations(answer, [SourceDocument(id="d1", text=doc)])
"""

from __future__ import annotations

from typing import Any

from citelens import lazy_export

_EXPORTS = {
    "align_citations": "citations",
    "PreparedCitationCorpus": "citations",
    "CitationConfig": "config",
    "CitationWeights": "config",
    "SourceDocument": "models",
    "SourceChunk": "models",
    "AnswerSpan": "models",
    "Citation": "models",
    "EvidenceSpan": "models",
    "Alignment": "models",
    "SpanCitations": "models",
    "RetrievalSupport": "models",
    "AlignmentMetrics": "models",
    "HallucinationConfig": "hallucination",
    "HallucinationMetrics": "hallucination",
    "SpanConfidence": "hallucination",
    "compute_hallucination_metrics": "hallucination",
    "is_grounded": "annotate",
    "check_groundedness": "annotate",
    "annotate_answer": "annotate",
    "format_with_citations": "annotate",
    "get_citation_summary": "annotate",
    "Segment": "models",
    "is_hallucinated": "annotate",
    "SmithWatermanAligner": "smith_waterman",
    "Tokenizer": "tokenizer",
    "SimpleSegmenter": "segmenter",
    "SimpleAnswerSegmenter": "segmenter",
    "OffsetMap": "offsets",
}

__all__ = sorted(_EXPORTS)
_MODULES = {n: f"citelens.align.{m}" for n, m in _EXPORTS.items()}


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _MODULES, name)


def __dir__() -> list[str]:
    return __all__
