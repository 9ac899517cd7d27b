"""Where CiteLens keeps per-user caches (corpus indexes, fetched documents, verdicts, the
server's start-up cache): one root, so one setting moves or clears them all."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """`$CITELENS_CACHE_DIR`, else `$XDG_CACHE_HOME/citelens`, else `~/.cache/citelens`."""
    if explicit := os.environ.get("CITELENS_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citelens"
