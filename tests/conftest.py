"""Test tiers by directory: `server`, `editors`, `release` (see scripts/test).

Helpers live in the `tests.helpers` package and are imported as `from tests.helpers.x
import ...` (pytest puts the repository root on the path: `pythonpath` in pyproject)."""

from __future__ import annotations

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
