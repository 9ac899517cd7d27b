"""Public entry points: ``align_citations`` and the reusable ``PreparedCitationCorpus``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from citelens.align.config import CitationConfig
from citelens.align.corpus import PreparedCorpus
from citelens.align.lexical import stopword_ids
from citelens.align.segmenter import SimpleAnswerSegmenter, SimpleSegmenter
from citelens.align.smith_waterman import SmithWatermanAligner
from citelens.align.span_alignment import SpanContext, search_span
from citelens.align.tokenizer import SHARED_VOCABULARY, Tokenizer

if TYPE_CHECKING:
    from citelens.align.models import AlignmentMetrics, SpanCitations

BACKENDS = ("auto", "python", "rust")


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"Unknown backend: {backend}")
    if backend == "rust":
        raise RuntimeError("citelens has no native aligner; use backend='auto' or 'python'")


def _is_default_segmenter(segmenter: Any) -> bool:
    return segmenter is None or (type(segmenter) is SimpleSegmenter and segmenter.split_on_newlines)


class PreparedCitationCorpus:
    """Source-side state for one source set and one config, reused across answers."""

    def __init__(
        self,
        corpus: PreparedCorpus,
        config: CitationConfig,
        tokenizer: Any,
        embedder: Any = None,
        embedding_index: Any = None,
        embedding_build_ms: float = 0.0,
    ) -> None:
        self.corpus = corpus
        self.config = config
        self.tokenizer = tokenizer
        self.embedder = embedder
        self.embedding_index = embedding_index
        self.embedding_build_time_ms = embedding_build_ms
        # cite-right keeps its Rust inverted index here; the pure-Python path it is
        # compatible with leaves it None, and so do we (candidates come from `corpus`)
        self.inverted_index = None

    @classmethod
    def from_sources(
        cls,
        sources: Sequence[Any],
        *,
        config: CitationConfig | None = None,
        source_segmenter: Any = None,
        tokenizer: Any = None,
        embedder: Any = None,
        use_rust: bool = True,  # accepted for signature compatibility; there is only one path
    ) -> PreparedCitationCorpus:
        cfg = config or CitationConfig()
        shared = tokenizer is None or (
            type(tokenizer) is Tokenizer and tokenizer.vocabulary is SHARED_VOCABULARY
        )
        if shared and _is_default_segmenter(source_segmenter):
            corpus = PreparedCorpus.build(
                sources, window=cfg.window_size_sentences, stride=cfg.window_stride_sentences
            )
            tokenizer = tokenizer or Tokenizer(SHARED_VOCABULARY)
        else:
            tokenizer = tokenizer or Tokenizer(SHARED_VOCABULARY)
            corpus = PreparedCorpus.build(
                sources,
                window=cfg.window_size_sentences,
                stride=cfg.window_stride_sentences,
                tokenizer=None if shared else tokenizer,
                segmenter=source_segmenter,
                cache=None,
            )
        index = None
        build_ms = 0.0
        if embedder is not None:
            from citelens.align.embeddings import EmbeddingIndex

            started = time.perf_counter()
            index = EmbeddingIndex.build(
                embedder, [corpus.passage_text(p) for p in range(corpus.num_passages)]
            )
            build_ms = (time.perf_counter() - started) * 1000
        return cls(corpus, cfg, tokenizer, embedder, index, build_ms)

    def align(
        self,
        answer: str,
        *,
        backend: str = "auto",
        answer_segmenter: Any = None,
        aligner: Any = None,
        on_metrics: Callable[[Any], None] | None = None,
    ) -> list[SpanCitations]:
        from citelens.align.models import SpanCitations

        _check_backend(backend)
        cfg = self.config
        if cfg.top_k <= 0:
            _report(on_metrics, 0.0, 0, 0, 0)
            return []
        started = time.perf_counter()
        spans = (answer_segmenter or SimpleAnswerSegmenter()).segment(answer)
        vocab = getattr(self.tokenizer, "_vocab", None)
        if (
            aligner is not None
            and type(aligner) is SmithWatermanAligner
            and (aligner.match_score, aligner.mismatch_score, aligner.gap_score, aligner.return_match_blocks)
            == (cfg.match_score, cfg.mismatch_score, cfg.gap_score, cfg.multi_span_evidence)
        ):
            aligner = None  # identical to the built-in one
        ctx = SpanContext(
            corpus=self.corpus,
            cfg=cfg,
            tokenizer=self.tokenizer,
            aligner=aligner,
            embedding_index=self.embedding_index,
            has_vocab=isinstance(vocab, dict),
        )
        vectors = None
        embed_ms = 0.0
        out = []
        for k, span in enumerate(spans):
            ids = list(self.tokenizer.tokenize(span.text).token_ids)
            ctx.stop_ids = stopword_ids(vocab) if isinstance(vocab, dict) else frozenset()
            query_vector = None
            if self.embedding_index is not None and ids and self.corpus.num_passages:
                if vectors is None:
                    t0 = time.perf_counter()
                    vectors = self.embedder.encode([s.text for s in spans])
                    embed_ms += (time.perf_counter() - t0) * 1000
                query_vector = vectors[k]
            t0 = time.perf_counter()
            citations, support, status = search_span(ctx, span.text, ids, query_vector)
            ctx.timings["align_ms"] += (time.perf_counter() - t0) * 1000
            out.append(
                SpanCitations.model_construct(
                    answer_span=span, citations=citations, retrieval_support=support, status=status
                )
            )
        _report(
            on_metrics,
            (time.perf_counter() - started) * 1000,
            len(spans),
            self.corpus.num_passages,
            ctx.alignments,
            embed_ms,
            ctx.timings["align_ms"],
        )
        return out


def _report(
    on_metrics: Callable[[AlignmentMetrics], None] | None,
    total_ms: float,
    n_spans: int,
    n_candidates: int,
    n_alignments: int,
    embed_ms: float = 0.0,
    align_ms: float = 0.0,
) -> None:
    if on_metrics is None:
        return
    from citelens.align.models import AlignmentMetrics

    on_metrics(
        AlignmentMetrics(
            total_time_ms=total_ms,
            num_answer_spans=n_spans,
            num_candidates=n_candidates,
            num_alignments=n_alignments,
            embedding_time_ms=embed_ms,
            alignment_time_ms=align_ms,
        )
    )


def align_citations(
    answer: str,
    sources: Sequence[Any],
    *,
    config: CitationConfig | None = None,
    backend: str = "auto",
    answer_segmenter: Any = None,
    source_segmenter: Any = None,
    tokenizer: Any = None,
    aligner: Any = None,
    embedder: Any = None,
    on_metrics: Callable[[Any], None] | None = None,
) -> list[SpanCitations]:
    """One ``SpanCitations`` per answer sentence, in answer order.

    ``sources`` may mix plain strings (id = position), ``SourceDocument`` and
    ``SourceChunk``. Documents are prepared once per process and cached, so calling
    this repeatedly with the same documents costs little more than a prepared corpus.
    """
    cfg = config or CitationConfig()
    _check_backend(backend)
    if cfg.top_k <= 0:
        _report(on_metrics, 0.0, 0, 0, 0)
        return []
    started = time.perf_counter()
    prepared = PreparedCitationCorpus.from_sources(
        sources, config=cfg, source_segmenter=source_segmenter, tokenizer=tokenizer, embedder=embedder
    )
    captured: list[AlignmentMetrics] = []
    results = prepared.align(
        answer,
        backend=backend,
        answer_segmenter=answer_segmenter,
        aligner=aligner,
        on_metrics=captured.append if on_metrics is not None else None,
    )
    if on_metrics is not None:
        m = captured[0]
        _report(
            on_metrics,
            (time.perf_counter() - started) * 1000,
            m.num_answer_spans,
            m.num_candidates,
            m.num_alignments,
            prepared.embedding_build_time_ms + m.embedding_time_ms,
            m.alignment_time_ms,
        )
    return results
