"""Fixtures of the file tests."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.unprivileged import shared_folder


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an ordinary user can reach (pytest's tmp_path is private to root)."""
    with shared_folder() as path:
        yield path
