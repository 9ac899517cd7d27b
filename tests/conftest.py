"""Test tiers by directory: `server`, `editors`, `release` (see scripts/test).

Helpers live in the `tests.helpers` package and are imported as `from tests.helpers.x
import ...` (pytest puts the repository root on the path: `pythonpath` in pyproject).

`scripts/test` runs the tests in parallel, one test file per worker at a time (pytest-xdist,
`--dist loadfile`): the tests of a file run in one process, in order, so module fixtures
and what a file's tests share (the docs pages' sandboxes, the Anserini server, the build
of the distributions) are made once. Tests of different files may run at the same time:
they share no fixed port, file name or user folder (ports from 0, `tmp_path`, and the
user's config and cache folders below)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: the folder of tests/ each tier's tests sit in
TIERS = {"server": "server", "editors": "editors", "release": "release"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        if len(parts) > 1 and parts[0] in TIERS:
            item.add_marker(TIERS[parts[0]])
        if "anserini_url" in getattr(item, "fixturenames", ()):
            item.add_marker("slow")  # starts Java and an Anserini REST server


@pytest.fixture(autouse=True)
def _private_user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's own config folder (trusted projects, config.toml)."""
    monkeypatch.setenv("CITELENS_CONFIG_DIR", str(tmp_path_factory.mktemp("user-config")))


@pytest.fixture(autouse=True, scope="session")
def _private_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Nor the user's cache folder: one per test process (a parallel worker), kept for its
    session as a user's is kept between runs (the server's start-up cache stays warm). A
    test that needs an empty cache sets `CITELENS_CACHE_DIR` itself."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CITELENS_CACHE_DIR", str(tmp_path_factory.mktemp("user-cache")))
        yield
