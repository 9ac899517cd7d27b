"""One sentence's citations seen in another shape, without changing the sentence.

Two views serve everything downstream: doc ids in priority order (the neuclir shape) and
doc ids with confidences (the ragtime shape, the most general one). A sentence already in
the wanted shape is returned as it is, not copied.
"""

from __future__ import annotations

from citelens.models.citation_ranking import ordered_ids, rank_confidences, resolve_positions
from citelens.models.sentences import (
    NeuclirReportSentence,
    Rag24ReportSentence,
    RagtimeReportSentence,
    ReportSentence,
)


def as_ordered_ids(sentence: ReportSentence, references: list[str]) -> NeuclirReportSentence:
    """The sentence with its citations as doc ids, most important first.

    Ragtime maps are ordered by descending confidence (ties keep their order); rag24
    positions are resolved through `references`, dropping those out of range. A ragtime
    or rag24 sentence that cited nothing (`None`) gets an empty list; a neuclir sentence
    is returned as it is, `None` included.
    """
    if isinstance(sentence, NeuclirReportSentence):
        return sentence
    if isinstance(sentence, RagtimeReportSentence):
        ids = ordered_ids(sentence.citations)
    elif isinstance(sentence, Rag24ReportSentence):
        ids = resolve_positions(sentence.citations, references)
    else:
        raise RuntimeError(f"Unknown sentence type: {type(sentence)}")
    return NeuclirReportSentence(
        text=sentence.text, citations=ids, metadata=sentence.metadata, evaldata=sentence.evaldata
    )


def as_confidences(sentence: ReportSentence, references: list[str]) -> RagtimeReportSentence:
    """The sentence with its citations as `{doc_id: confidence}`.

    Ragtime scores are kept; order-only shapes get stand-ins 1/rank (first occurrence of
    a repeated id wins). A sentence that cited nothing (`None`) stays `None`.
    """
    if isinstance(sentence, RagtimeReportSentence):
        return sentence
    if isinstance(sentence, NeuclirReportSentence):
        ids = sentence.citations
    elif isinstance(sentence, Rag24ReportSentence):
        ids = None if sentence.citations is None else resolve_positions(sentence.citations, references)
    else:
        raise RuntimeError(
            f"Unknown sentence format {type(sentence).__name__}, cannot resolve citations: {sentence}"
        )
    return RagtimeReportSentence(
        text=sentence.text,
        citations=None if ids is None else rank_confidences(ids),
        metadata=sentence.metadata,
        evaldata=sentence.evaldata,
    )
