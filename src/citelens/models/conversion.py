"""`convert(report, spec)`: a new report in the target spec's wire shape (what
`Report.convert`, `to_rag` and `to_ragtime` do; `citelens.convert` builds on it).

Citations are read in their confidence-keeping form (real ragtime scores, or 1/rank for
order-only shapes), ranked once by descending confidence (ties keep their order), cut to
the spec's per-sentence maximum unless the spec treats too many citations as a smell,
and written in the spec's canonical sentence shape. A sentence that cited nothing (`None`)
stays `None`, which is not the same as `[]`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from citelens.models.citation_ranking import RankedCitations, rank_citations, truncate
from citelens.models.metadata_map import map_metadata
from citelens.models.sentences import ReportSentence, sentence_class_for
from citelens.specs import require_spec

if TYPE_CHECKING:
    from citelens.models.report import Report
    from citelens.specs import TrackSpec


def citation_limit(spec: TrackSpec) -> int | None:
    """The per-sentence cap conversion enforces: none when the spec only warns about it."""
    return None if "citation_count" in spec.smells else spec.max_citations_per_sentence


def target_references(
    source: list[str] | None, ranked: list[RankedCitations | None], spec: TrackSpec
) -> list[str]:
    """`cited_only`: the cited ids; otherwise the source list de-duplicated, then cited ids it lacks."""
    references = [] if spec.references_kind == "cited_only" else list(dict.fromkeys(source or []))
    known = set(references)
    for pairs in ranked:
        for doc_id, _ in pairs or []:
            if doc_id not in known:
                known.add(doc_id)
                references.append(doc_id)
    return references


def emit(ranked: RankedCitations | None, tag: str, position: dict[str, int]) -> Any:
    """Ranked pairs in one wire shape: ragtime map, neuclir ids, rag24 positions."""
    if ranked is None:
        return None
    if tag == "ragtime":
        return dict(ranked)
    if tag == "neuclir":
        return [doc_id for doc_id, _ in ranked]
    if tag == "rag24":
        return [position[doc_id] for doc_id, _ in ranked]
    raise KeyError(f"cannot emit citations for sentence_type {tag!r}")


def convert(report: Report, spec: TrackSpec | str) -> Report:
    """A new `Report` whose sentences, references and metadata follow `spec` (id or TrackSpec)."""
    spec = require_spec(spec)
    tag = spec.emit_sentence_type
    cls: type[ReportSentence] = sentence_class_for(tag)
    limit = citation_limit(spec)
    resolved = report.get_sentences_with_citation_confidences()
    ranked = [truncate(rank_citations(s.citations), limit) for s in resolved]
    references = target_references(report.references, ranked, spec)
    position = {doc_id: i for i, doc_id in enumerate(references)}
    sentences = [
        cls(text=s.text, citations=emit(pairs, tag, position), metadata=s.metadata, evaldata=s.evaldata)
        for s, pairs in zip(resolved, ranked)
    ]
    return type(report)(  # the report's own class: this module does not import the model
        is_ragtime=tag == "ragtime",
        metadata=map_metadata(report.metadata, spec),
        responses=sentences,  # type: ignore[arg-type]  # one sentence class by construction
        references=None if spec.references_kind == "none" else references,
    )


def to_rag(report: Report, spec: TrackSpec | str | None = None) -> Report:
    """Deprecated: `convert(report, spec)` with an explicit RAG spec; defaults to rag25."""
    warnings.warn(
        "to_rag is deprecated; use convert(report, spec) with an explicit spec, "
        "e.g. convert(report, 'rag26').",
        DeprecationWarning,
        stacklevel=2,
    )
    return convert(report, spec or "rag25")


def to_ragtime(report: Report, spec: TrackSpec | str | None = None) -> Report:
    """Deprecated: `convert(report, spec)` with an explicit RAGTIME spec; defaults to ragtime25."""
    warnings.warn(
        "to_ragtime is deprecated; use convert(report, spec) with an explicit spec, "
        "e.g. convert(report, 'ragtime26').",
        DeprecationWarning,
        stacklevel=2,
    )
    return convert(report, spec or "ragtime25")
