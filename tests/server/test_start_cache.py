"""The start-up cache of lsprotocol's compiled classes changes the server's start time,
never its behaviour: the same `initialize` answer and the same session with or without it,
a broken cache file is replaced, and an unwritable cache directory is no obstacle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.lsp_session import SERVER_COMMAND
from tests.helpers.raw_client import frame, read_framed

pytestmark = pytest.mark.timeout(180)

CACHE_FILE = f"server/lsprotocol-{sys.implementation.cache_tag}.marshal"


def _session(cache_dir: Path, tmp_path: Path) -> list[dict]:
    """initialize, open a faulty run, hover its first citation, shut down: every message back."""
    run = tmp_path / "run.jsonl"
    text = json.dumps(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "narrative_id": "1"},
            "references": ["msmarco_v2.1_doc_00_0#0"],
            "answer": [{"text": "A sentence.", "citations": [3]}],
        }
    )
    run.write_text(text + "\n", encoding="utf-8")
    uri = run.as_uri()
    messages = [
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": None,
                "capabilities": {"textDocument": {"diagnostic": {}}},
            },
        },
        {"method": "initialized", "params": {}},
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "jsonl", "version": 1, "text": text + "\n"}
            },
        },
        {"id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}},
        {"id": 3, "method": "shutdown", "params": None},
        {"method": "exit"},
    ]
    env = {**os.environ, "CITELENS_CACHE_DIR": str(cache_dir)}
    proc = subprocess.Popen(
        SERVER_COMMAND,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=tmp_path,
    )
    got: list[dict] = []
    try:
        for message in messages:
            proc.stdin.write(frame(message))
            proc.stdin.flush()
            while "id" in message and not any(m.get("id") == message["id"] for m in got):
                answer = read_framed(proc.stdout)
                if answer.get("method") != "window/logMessage":
                    got.append(answer)
        proc.wait(60)
    finally:
        proc.kill()
    return got


def test_first_start_writes_the_cache_and_later_starts_answer_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _session(cache, tmp_path)
    written = cache / CACHE_FILE
    assert written.is_file() and written.stat().st_size > 100_000
    stamp = written.stat().st_mtime_ns
    second = _session(cache, tmp_path)
    assert second == first
    assert written.stat().st_mtime_ns == stamp  # nothing new compiled: not rewritten
    assert first[0]["result"]["capabilities"]["hoverProvider"]
    diagnostics = next(m for m in first if m.get("id") == 2)["result"]["items"]
    assert any(d["code"] == "reference_index" for d in diagnostics)


def test_a_broken_cache_file_is_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    good = _session(tmp_path / "fresh", tmp_path)
    (cache / CACHE_FILE).parent.mkdir(parents=True)
    (cache / CACHE_FILE).write_bytes(b"\x00not marshal data")
    assert _session(cache, tmp_path) == good
    assert (cache / CACHE_FILE).stat().st_size > 100_000


def test_an_unwritable_cache_directory_is_no_obstacle(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    good = _session(tmp_path / "fresh", tmp_path)
    assert _session(blocker / "cache", tmp_path) == good
