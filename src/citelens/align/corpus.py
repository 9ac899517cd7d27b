"""The prepared corpus: everything on the source side, computed once per document set.

Each distinct document text is tokenized, segmented and split into passages once per
process (``PreparedDocument``, cached by source id and text hash); a corpus stacks the
documents it needs and builds one inverted index (token -> passages, with counts) and
the IDF weights over all its passages. Answers are then scored against the index
instead of against every passage.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from citelens.align.passages import window_passages
from citelens.align.segmenter import sentence_spans
from citelens.align.structured import looks_structured
from citelens.align.tokenizer import SHARED_VOCABULARY


@dataclass(slots=True)
class NormalizedSource:
    """One input source in a common shape; ``base_offset`` places chunks in their document."""

    source_id: str
    source_index: int
    text: str
    base_offset: int
    full_text: str | None

    def cut(self, abs_start: int, abs_end: int) -> str:
        """Text at absolute document offsets (from the full document when known)."""
        if self.full_text is not None:
            return self.full_text[abs_start:abs_end]
        return self.text[abs_start - self.base_offset : abs_end - self.base_offset]


def normalize_sources(sources: Sequence[Any]) -> list[NormalizedSource]:
    """Strings, ``SourceDocument`` and ``SourceChunk`` (or look-alikes) in one shape."""
    out: list[NormalizedSource] = []
    for position, item in enumerate(sources):
        if isinstance(item, str):
            out.append(NormalizedSource(str(position), position, item, 0, item))
        elif hasattr(item, "source_id"):
            index = item.source_index if item.source_index is not None else position
            out.append(
                NormalizedSource(item.source_id, index, item.text, item.doc_char_start, item.document_text)
            )
        elif hasattr(item, "id") and hasattr(item, "text"):
            out.append(NormalizedSource(str(item.id), position, item.text, 0, item.text))
        else:
            raise TypeError(
                f"source {position}: expected str, SourceDocument or SourceChunk, got {type(item).__name__}"
            )
    return out


@dataclass(slots=True)
class PreparedDocument:
    """Tokens, passages and per-passage token counts of one text (offsets local to it)."""

    text: str
    token_ids: np.ndarray  # int32
    token_starts: np.ndarray  # int32, code points
    token_ends: np.ndarray
    passage_starts: np.ndarray
    passage_ends: np.ndarray
    passage_lo: np.ndarray  # first token of each passage
    passage_hi: np.ndarray  # one past its last token
    post_tokens: np.ndarray  # unique (token, passage) pairs ...
    post_passages: np.ndarray
    post_counts: np.ndarray  # ... and how often the token occurs in the passage
    structured: bool

    @property
    def size(self) -> int:
        return int(self.token_ids.shape[0])


def _postings(
    token_ids: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_passages = lo.shape[0]
    lengths = hi - lo
    total = int(lengths.sum())
    if total == 0:
        empty = np.zeros(0, dtype=np.int32)
        return empty, empty, empty
    passage_of = np.repeat(np.arange(n_passages, dtype=np.int64), lengths)
    firsts = np.cumsum(lengths) - lengths
    token_index = np.arange(total, dtype=np.int64) - np.repeat(firsts - lo, lengths)
    keys = token_ids[token_index].astype(np.int64) * n_passages + passage_of
    unique, counts = np.unique(keys, return_counts=True)
    return (
        (unique // n_passages).astype(np.int32),
        (unique % n_passages).astype(np.int32),
        counts.astype(np.int32),
    )


def prepare_document(
    text: str, window: int, stride: int, tokenizer: Any = None, segmenter: Any = None
) -> PreparedDocument:
    """Tokenize, segment and window one text (the default tokenizer and segmenter unless given)."""
    if tokenizer is None:
        ids, starts_list, ends_list = SHARED_VOCABULARY.tokenize_bounds(text)
    else:
        tokenized = tokenizer.tokenize(text)
        ids = list(tokenized.token_ids)
        starts_list = [int(sp[0]) for sp in tokenized.token_spans]
        ends_list = [int(sp[1]) for sp in tokenized.token_spans]
    if segmenter is None:
        segments = sentence_spans(text)
    else:
        segments = [
            (s.doc_char_start, s.doc_char_end) if hasattr(s, "doc_char_start") else tuple(s)
            for s in segmenter.segment(text)
        ]
    passages = window_passages(segments, window, stride)

    token_ids = np.asarray(ids, dtype=np.int32)
    starts = np.asarray(starts_list, dtype=np.int32)
    ends = np.asarray(ends_list, dtype=np.int32)
    pbounds = np.asarray(passages, dtype=np.int32).reshape(-1, 2)
    p_starts = np.ascontiguousarray(pbounds[:, 0])
    p_ends = np.ascontiguousarray(pbounds[:, 1])
    lo = np.searchsorted(ends, p_starts, side="right").astype(np.int64)
    hi = np.maximum(np.searchsorted(starts, p_ends, side="left").astype(np.int64), lo)
    post_tokens, post_passages, post_counts = _postings(token_ids, lo, hi)
    return PreparedDocument(
        text,
        token_ids,
        starts,
        ends,
        p_starts,
        p_ends,
        lo,
        hi,
        post_tokens,
        post_passages,
        post_counts,
        looks_structured(text),
    )


#: (source id, window, stride, text length, text hash)
DocumentKey: TypeAlias = tuple[str, int, int, int, int]


class DocumentCache:
    """Prepared documents by (source id, window, stride, text hash), least recently used out."""

    def __init__(self, max_tokens: int = 5_000_000) -> None:
        self.max_tokens = max_tokens
        self._docs: OrderedDict[DocumentKey, PreparedDocument] = OrderedDict()
        self._tokens = 0
        self._lock = threading.Lock()

    def get(self, source_id: str, text: str, window: int, stride: int) -> PreparedDocument:
        key = (source_id, window, stride, len(text), hash(text))
        with self._lock:
            doc = self._docs.get(key)
            if doc is not None and doc.text == text:
                self._docs.move_to_end(key)
                return doc
        doc = prepare_document(text, window, stride)
        with self._lock:
            old = self._docs.pop(key, None)
            if old is not None:
                self._tokens -= old.size
            self._docs[key] = doc
            self._tokens += doc.size
            while self._tokens > self.max_tokens and len(self._docs) > 1:
                _, dropped = self._docs.popitem(last=False)
                self._tokens -= dropped.size
        return doc

    def clear(self) -> None:
        with self._lock:
            self._docs.clear()
            self._tokens = 0


DOCUMENT_CACHE = DocumentCache()


class PreparedCorpus:
    """Passages of a source set with an inverted index and IDF weights.

    Passage ``p`` belongs to source ``passage_source[p]``; its tokens are
    ``token_ids[passage_lo[p]:passage_hi[p]]`` with offsets local to that source's text.
    """

    def __init__(
        self,
        sources: list[NormalizedSource],
        docs: list[PreparedDocument],
        vocabulary_size: int,
    ) -> None:
        self.sources = sources
        self.docs = docs
        token_offsets = np.cumsum([0] + [d.size for d in docs])
        passage_offsets = np.cumsum([0] + [d.passage_starts.shape[0] for d in docs])
        self.num_passages = int(passage_offsets[-1])
        cat = np.concatenate
        self.token_ids = cat([d.token_ids for d in docs]) if docs else np.zeros(0, np.int32)
        self.token_starts = cat([d.token_starts for d in docs]) if docs else np.zeros(0, np.int32)
        self.token_ends = cat([d.token_ends for d in docs]) if docs else np.zeros(0, np.int32)
        n_docs = len(docs)
        counts = [d.passage_starts.shape[0] for d in docs]
        self.passage_source = np.repeat(np.arange(n_docs, dtype=np.int32), counts)
        self.passage_source_index = (
            np.asarray([s.source_index for s in sources], dtype=np.int64)[self.passage_source]
            if n_docs
            else np.zeros(0, np.int64)
        )
        self.passage_starts = cat([d.passage_starts for d in docs]) if docs else np.zeros(0, np.int32)
        self.passage_ends = cat([d.passage_ends for d in docs]) if docs else np.zeros(0, np.int32)
        self.passage_lo = (
            cat([d.passage_lo + off for d, off in zip(docs, token_offsets)])
            if docs
            else np.zeros(0, np.int64)
        )
        self.passage_hi = (
            cat([d.passage_hi + off for d, off in zip(docs, token_offsets)])
            if docs
            else np.zeros(0, np.int64)
        )
        self.structured = [d.structured for d in docs]
        self.any_structured = any(self.structured)
        self.passage_structured = (
            np.asarray(self.structured, dtype=bool)[self.passage_source] if n_docs else np.zeros(0, bool)
        )
        self.source_codes: dict[str, list[int]] = {}
        for i, s in enumerate(sources):
            self.source_codes.setdefault(s.source_id, []).append(i)

        post_tokens = cat([d.post_tokens for d in docs]) if docs else np.zeros(0, np.int32)
        post_passages = (
            cat([d.post_passages.astype(np.int32) + np.int32(off) for d, off in zip(docs, passage_offsets)])
            if docs
            else np.zeros(0, np.int32)
        )
        post_counts = cat([d.post_counts for d in docs]) if docs else np.zeros(0, np.int32)
        order = np.argsort(post_tokens, kind="stable")
        self.post_passages = post_passages[order]
        self.post_counts = post_counts[order]
        size = max(vocabulary_size, int(post_tokens.max()) if post_tokens.size else 0) + 1
        df = np.bincount(post_tokens, minlength=size)
        self.post_ptr = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(df, out=self.post_ptr[1:])
        n = self.num_passages
        with np.errstate(divide="ignore"):
            idf = np.log((n + 1) / (df + 1.0)) + 1.0
        idf[df == 0] = 1.0  # tokens absent from the corpus weigh 1.0, as in the reference
        self.idf = idf
        self.vocabulary_size = size - 1

    @classmethod
    def build(
        cls,
        sources: Sequence[Any],
        *,
        window: int = 1,
        stride: int = 1,
        tokenizer: Any = None,
        segmenter: Any = None,
        cache: DocumentCache | None = DOCUMENT_CACHE,
    ) -> PreparedCorpus:
        normalized = normalize_sources(sources)
        if tokenizer is None and segmenter is None and cache is not None:
            docs = [cache.get(s.source_id, s.text, window, stride) for s in normalized]
            vocab_size = len(SHARED_VOCABULARY)
        else:
            docs = [prepare_document(s.text, window, stride, tokenizer, segmenter) for s in normalized]
            vocab = getattr(tokenizer, "_vocab", None) if tokenizer is not None else SHARED_VOCABULARY.ids
            vocab_size = len(vocab) if isinstance(vocab, dict) else 0
        return cls(normalized, docs, vocab_size)

    # -- near token pairs ------------------------------------------------------

    def near_pairs(self, passages: np.ndarray, answer_ids: list[int]) -> np.ndarray:
        """For each passage: does it hold a pair of answer tokens at distance 1-2 in both texts?

        Two matches can only join one local alignment (default scoring) when they are at
        most 2 tokens apart in the answer and in the passage; a passage without such a
        pair aligns to a single match.
        """
        flags = np.zeros(passages.shape[0], dtype=bool)
        q = np.asarray(answer_ids, dtype=np.int64)
        if q.shape[0] < 2 or not passages.size:
            return flags
        wanted = np.unique(np.concatenate([(q[:-d] << 32) | q[d:] for d in (1, 2) if q.shape[0] > d]))
        lo = self.passage_lo[passages]
        lengths = self.passage_hi[passages] - lo
        total = int(lengths.sum())
        owner = np.repeat(np.arange(passages.shape[0], dtype=np.int64), lengths)
        firsts = np.cumsum(lengths) - lengths
        ids = self.token_ids[np.arange(total, dtype=np.int64) - np.repeat(firsts - lo, lengths)].astype(
            np.int64
        )
        for d in (1, 2):
            if total <= d:
                continue
            found = (owner[:-d] == owner[d:]) & np.isin((ids[:-d] << 32) | ids[d:], wanted)
            flags[owner[:-d][found]] = True
        return flags

    # -- per passage helpers -------------------------------------------------

    def passage_tokens(self, p: int) -> np.ndarray:
        return self.token_ids[self.passage_lo[p] : self.passage_hi[p]]

    def passage_text(self, p: int) -> str:
        src = self.sources[self.passage_source[p]]
        text: str = src.text[self.passage_starts[p] : self.passage_ends[p]]
        return text

    def idf_of(self, token_id: int) -> float:
        return float(self.idf[token_id]) if 0 <= token_id < self.idf.shape[0] else 1.0
