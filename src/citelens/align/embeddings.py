"""Cosine-similarity search over passage embeddings from a user-supplied embedder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class EmbeddingIndex:
    """Passage vectors and norms; ``top_k`` ranks by cosine similarity, ties by index."""

    def __init__(self, vectors: np.ndarray) -> None:
        self.vectors = vectors
        self.norms = np.linalg.norm(vectors, axis=1) if vectors.size else np.zeros(0, dtype=np.float32)

    @classmethod
    def build(cls, embedder: Any, texts: Sequence[str]) -> EmbeddingIndex:
        return cls(np.asarray(embedder.encode(list(texts)), dtype=np.float32).reshape(len(texts), -1))

    def top_k(self, query: Sequence[float], k: int) -> list[tuple[int, float]]:
        if k <= 0 or not self.vectors.size:
            return []
        q = np.asarray(query, dtype=np.float32)
        q_norm = float(np.linalg.norm(q))
        if q_norm == 0.0:
            return []
        valid = self.norms > 0
        scores = np.zeros(self.vectors.shape[0], dtype=np.float32)
        scores[valid] = (self.vectors[valid] @ q) / (self.norms[valid] * q_norm)
        order = np.lexsort((np.arange(scores.shape[0]), -scores))[:k]
        return [(int(i), float(scores[i])) for i in order if valid[i]]
