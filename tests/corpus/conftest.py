from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Indexes and fetched documents go to a per-test cache, never the user's."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(cache))
    return cache


@pytest.fixture(scope="session")
def anserini_url(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The base URL (`http://127.0.0.1:PORT/v1/idx`) of a real Anserini RestServer over the samples."""
    from tests.helpers.anserini_server import run_server

    yield from run_server(tmp_path_factory.mktemp("anserini"))
