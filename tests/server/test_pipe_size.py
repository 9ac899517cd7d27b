"""The server widens its output pipe (runtime/pipe_size.py): a big run's 16 MB of
diagnostics per edit then crosses in 1 MB turns, not 64 KB ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from citelens_server.runtime.pipe_size import WANTED, widen
from tests.helpers.raw_client import RawClient

pytestmark = pytest.mark.server

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="F_SETPIPE_SZ is Linux's")


def _limit() -> int:
    return min(WANTED, int(Path("/proc/sys/fs/pipe-max-size").read_text()))


@linux_only
def test_the_server_widens_the_pipe_the_editor_reads(tmp_path: Path) -> None:
    import fcntl

    client = RawClient(cwd=tmp_path)
    try:
        client.initialize(tmp_path)
        assert client.proc.stdout is not None
        assert fcntl.fcntl(client.proc.stdout.fileno(), fcntl.F_GETPIPE_SZ) >= _limit()
    finally:
        client.close()


@linux_only
def test_a_pipe_is_widened_and_anything_else_left_alone(tmp_path: Path) -> None:
    import os

    read_end, write_end = os.pipe()
    try:
        assert widen(write_end) >= _limit()
    finally:
        os.close(read_end)
        os.close(write_end)
    with open(tmp_path / "file", "wb") as f:
        assert widen(f.fileno()) == 0
