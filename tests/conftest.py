"""Shared test helpers (reference_oracle, report_factory, sample_data) are imported by name."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's own config folder (trusted projects, config.toml)."""
    monkeypatch.setenv("CITELENS_CONFIG_DIR", str(tmp_path_factory.mktemp("user-config")))
