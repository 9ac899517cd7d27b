"""IDF overlap between an answer span and every passage, and candidate selection.

The reference scores every passage that shares a token with the answer; the inverted
index gives the same scores by visiting only the postings of the answer's tokens. The
same pass counts, per passage, the shared tokens with multiplicity (an upper bound on
Smith-Waterman matches) and the shared content words (the paraphrase gate).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from citelens.align.corpus import PreparedCorpus

#: Function words ignored by the content-word coverage; not/no/never are content.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "else",
        "when",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "once",
        "here",
        "there",
        "where",
        "why",
        "how",
        "all",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "can",
        "will",
        "just",
        "should",
        "now",
        "of",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "this",
        "that",
        "these",
        "those",
        "i",
        "you",
        "he",
        "she",
        "it",
        "we",
        "they",
        "me",
        "him",
        "her",
        "us",
        "them",
        "my",
        "your",
        "his",
        "its",
        "our",
        "their",
        "what",
        "which",
        "who",
        "whom",
    ]
)


_STOP_CACHE: dict[int, tuple[int, frozenset[int]]] = {}


def stopword_ids(vocab: Mapping[str, int] | None) -> frozenset[int]:
    """Ids of the stopwords present in a tokenizer vocabulary (cached per vocabulary size)."""
    if not vocab:
        return frozenset()
    cached = _STOP_CACHE.get(id(vocab))
    if cached is not None and cached[0] == len(vocab):
        return cached[1]
    ids = frozenset(int(vocab[w]) for w in STOPWORDS if w in vocab)
    if len(_STOP_CACHE) > 64:
        _STOP_CACHE.clear()
    _STOP_CACHE[id(vocab)] = (len(vocab), ids)
    return ids


def content_coverage(
    answer_ids: Sequence[int], passage_ids: Sequence[int], stop_ids: frozenset[int]
) -> float:
    """Share of the answer's content tokens found in the passage, each occurrence used once."""
    content = [t for t in answer_ids if t not in stop_ids]
    if not content:
        return 0.0
    available = Counter(t for t in passage_ids if t not in stop_ids)
    hits = 0
    for t in content:
        if available.get(t, 0) > 0:
            available[t] -= 1
            hits += 1
    return hits / len(content)


@dataclass(slots=True)
class LexicalMatch:
    """Per-passage overlap of one answer span with the corpus (dense arrays over passages)."""

    score: np.ndarray  # IDF overlap / IDF of the answer's unique tokens
    shared: np.ndarray  # shared tokens counted with multiplicity (bounds SW matches)
    content_coverage: np.ndarray  # shared content tokens / answer content tokens


def match_passages(
    corpus: PreparedCorpus, answer_ids: list[int], stop_ids: frozenset[int], has_vocab: bool
) -> LexicalMatch:
    n = corpus.num_passages
    counts = Counter(answer_ids)
    denom = sum(corpus.idf_of(t) for t in counts)
    ptr = corpus.post_ptr
    size = ptr.shape[0] - 1
    present = [t for t in counts if 0 <= t < size and ptr[t + 1] > ptr[t]]
    if not present or denom <= 0.0:
        zero = np.zeros(n)
        return LexicalMatch(zero, zero, zero)
    starts = ptr[present]
    ends = ptr[np.asarray(present) + 1]
    lens = ends - starts
    passages = np.concatenate([corpus.post_passages[a:b] for a, b in zip(starts.tolist(), ends.tolist())])
    occurrences = np.concatenate([corpus.post_counts[a:b] for a, b in zip(starts.tolist(), ends.tolist())])
    idf = corpus.idf[present]
    score = np.bincount(passages, weights=np.repeat(idf, lens), minlength=n) / denom
    wanted = np.repeat(np.asarray([counts[t] for t in present]), lens)
    overlap = np.minimum(occurrences, wanted).astype(np.float64)
    shared = np.bincount(passages, weights=overlap, minlength=n)
    n_content = sum(c for t, c in counts.items() if t not in stop_ids)
    if has_vocab and n_content:
        is_content = np.repeat(np.asarray([t not in stop_ids for t in present]), lens)
        coverage = np.bincount(passages, weights=overlap * is_content, minlength=n) / n_content
    else:
        coverage = np.zeros(n)
    return LexicalMatch(score, shared, coverage)


def top_lexical(corpus: PreparedCorpus, score: np.ndarray, limit: int) -> np.ndarray:
    """Passages with positive score, best first by (-score, source index, passage index)."""
    if limit <= 0:
        return np.zeros(0, dtype=np.int64)
    pos = np.flatnonzero(score > 0)
    if pos.size > limit:
        values = score[pos]
        kth = np.partition(values, pos.size - limit)[pos.size - limit]
        pos = pos[values >= kth]
    order = np.lexsort((pos, corpus.passage_source_index[pos], -score[pos]))
    return pos[order][:limit]
