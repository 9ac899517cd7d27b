"""Where corpus indexes and fetched documents go in the per-user cache."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from citelens.files.user_cache import cache_root


def default_index_path(corpora: Sequence[Path]) -> Path:
    """The index of these corpus paths in the user's cache, keyed by their resolved paths.

    The sizes and modification times of the files are recorded inside the index, so a
    changed or grown file is noticed (and re-read, or read on from where it stopped).
    """
    key = "\n".join(str(Path(p).resolve()) for p in corpora)
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
    name = Path(corpora[0]).name if corpora else "corpus"
    return cache_root() / "index" / f"{name}-{digest}.sqlite"


def service_cache_path(base_url: str) -> Path:
    """The on-disk cache of documents fetched from one REST service."""
    digest = hashlib.sha256(base_url.encode("utf-8")).hexdigest()[:20]
    return cache_root() / "fetched" / f"{digest}.sqlite"
