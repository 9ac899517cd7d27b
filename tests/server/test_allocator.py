"""A big run's edits build each new text in memory the last one freed (runtime/allocator.py):
counted as the server's page faults per keystroke, over raw JSON-RPC."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.helpers.raw_client import PAGE, RawClient, position_change
from tests.helpers.report_factory import generate_run

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")

EDITS = 30


def _faults(client: RawClient) -> int:
    with open(f"/proc/{client.proc.pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])  # minflt


def test_typing_in_a_big_run_does_not_fault_in_a_new_text_each_time(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 3000, 2, fault_free=True)
    text = "\n".join(lines) + "\n"  # 2.8 MB: a progress bar's size, so the allocator is set
    client = RawClient()
    try:
        client.initialize(tmp_path, {"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
        uri = client.open(tmp_path / "big.jsonl", text)
        client.diagnostics(uri, 1, timeout=120)
        column = text.index('"text": "') + 9
        for n in range(4):  # the first edits settle the heap
            client.change(uri, n + 2, [position_change(0, column, column, "x")])
            client.diagnostics(uri, n + 2, timeout=60)
        before = _faults(client)
        for n in range(6, 6 + EDITS):
            client.change(uri, n, [position_change(0, column, column, "x")])
            client.diagnostics(uri, n, timeout=60)
        per_edit = (_faults(client) - before) / EDITS
        text_pages = len(text) // PAGE  # an ASCII text: a byte a character
        # each edit copies the text twice; fresh memory faults in about half of one copy's
        # pages (here: 360 of 686 with glibc's defaults, 48 with the thresholds set)
        assert per_edit < text_pages / 4, f"{per_edit:.0f} page faults per edit, {text_pages} pages a text"
    finally:
        client.close()
