"""One-call helpers over `align_citations`: grounding figures, answers with citation
markers, and a plain-text summary (the names and outputs of cite-right's convenience
module, so code written against it keeps working)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from citelens.align.hallucination import HallucinationMetrics, compute_hallucination_metrics
from citelens.align.models import SpanCitations

MarkerStyle = Literal["markdown", "superscript", "footnote"]

#: how source number n is written in each marker style
_MARKER = {"markdown": "[{}]", "superscript": "^{}", "footnote": "[^{}]"}
_UNSUPPORTED_MARKER = "[?]"


def check_groundedness(
    answer: str, sources: Sequence[Any], *, hallucination_config: Any = None, **align_options: Any
) -> HallucinationMetrics:
    """Align the answer with its sources and return the grounding figures of the result.

    `align_options` are `align_citations`' keyword arguments (config, tokenizer,
    answer_segmenter, source_segmenter, embedder, backend)."""
    from citelens.align.citations import align_citations

    results = align_citations(answer, sources, **align_options)
    return compute_hallucination_metrics(results, config=hallucination_config)


def is_grounded(
    answer: str,
    sources: Sequence[Any],
    *,
    threshold: float = 0.5,
    hallucination_config: Any = None,
    **align_options: Any,
) -> bool:
    """True when the answer's groundedness reaches ``threshold``."""
    metrics = check_groundedness(answer, sources, hallucination_config=hallucination_config, **align_options)
    return metrics.groundedness_score >= threshold


def is_hallucinated(
    answer: str,
    sources: Sequence[Any],
    *,
    threshold: float = 0.5,
    hallucination_config: Any = None,
    **align_options: Any,
) -> bool:
    """True when the hallucination rate exceeds ``threshold``."""
    metrics = check_groundedness(answer, sources, hallucination_config=hallucination_config, **align_options)
    return metrics.hallucination_rate > threshold


def annotate_answer(
    answer: str,
    sources: Sequence[Any],
    *,
    format: MarkerStyle = "markdown",
    include_unsupported: bool = True,
    **align_options: Any,
) -> str:
    """The answer with a citation marker after each span (``[?]`` where nothing supports it)."""
    from citelens.align.citations import align_citations

    results = align_citations(answer, sources, **align_options)
    return format_with_citations(answer, results, format=format, include_unsupported=include_unsupported)


def _source_numbers(span_citations: Sequence[SpanCitations]) -> dict[str, int]:
    """1-based numbers for the cited sources, in the order they are first cited."""
    numbers: dict[str, int] = {}
    for sc in span_citations:
        for citation in sc.citations:
            numbers.setdefault(citation.source_id, len(numbers) + 1)
    return numbers


def format_with_citations(
    answer: str,
    span_citations: Sequence[SpanCitations],
    *,
    format: MarkerStyle = "markdown",
    include_unsupported: bool = True,
) -> str:
    """Insert markers for already computed results: after each span's last non-blank
    character, its sources' numbers in ascending order."""
    if format not in _MARKER:
        raise ValueError(f"format must be one of {', '.join(_MARKER)}; got {format!r}")
    numbers = _source_numbers(span_citations)
    pattern = _MARKER[format]
    inserts: list[tuple[int, int, str]] = []  # (span end, insertion point, marker)
    for sc in span_citations:
        cited = sorted({numbers[c.source_id] for c in sc.citations})
        if cited:
            marker = "".join(pattern.format(n) for n in cited)
        elif include_unsupported:
            marker = _UNSUPPORTED_MARKER
        else:
            continue
        span = sc.answer_span
        at = span.char_end
        while at > span.char_start and answer[at - 1] in " \t\n\r":
            at -= 1
        inserts.append((span.char_end, at, marker))
    # from the last span backwards, so the offsets still to use stay valid
    out = answer
    for _end, at, marker in sorted(inserts, key=lambda item: item[0], reverse=True):
        out = out[:at] + marker + out[at:]
    return out


def get_citation_summary(span_citations: Sequence[SpanCitations]) -> str:
    """A few lines for a log or a notebook: spans by status, and the sources cited."""
    if not span_citations:
        return "Citation Summary: No spans to analyze"
    status = Counter(sc.status for sc in span_citations)
    lines = ["Citation Summary:", f"- {status['supported']} of {len(span_citations)} spans fully supported"]
    if status["partial"]:
        lines.append(f"- {status['partial']} spans partially supported")
    if status["unsupported"]:
        lines.append(f"- {status['unsupported']} spans unsupported")
    retrieval_only = sum(1 for sc in span_citations if not sc.citations and sc.retrieval_support)
    if retrieval_only:
        lines.append(f"- {retrieval_only} unsupported spans had retrieval-only support candidates")
    sources = sorted({c.source_id for sc in span_citations for c in sc.citations})
    if sources:
        lines.append(f"- Sources cited: {', '.join(sources)}")
    return "\n".join(lines)
