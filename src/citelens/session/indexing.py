"""Building the embedded corpus index from an editor: the engine's indexer and the
errors it can end with, in one place for front ends."""

from __future__ import annotations

from citelens.corpus.cache_dir import default_index_path
from citelens.corpus.index_build import BuildProgress, IndexBusy, IndexCancelled, build_index
from citelens.corpus.reading import CorpusFileError

__all__ = [
    "BuildProgress",
    "CorpusFileError",
    "IndexBusy",
    "IndexCancelled",
    "build_index",
    "default_index_path",
]
