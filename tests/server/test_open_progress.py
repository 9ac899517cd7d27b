"""Opening a big run shows a progress bar until its first diagnostics arrive; a small one
shows none."""

from __future__ import annotations

from pathlib import Path

from citelens_server.runtime.checks import PROGRESS_CHARS
from tests.helpers.raw_client import RawClient
from tests.helpers.report_factory import generate_run


def _progress(client: RawClient) -> list[str]:
    return [m["params"]["value"]["kind"] for m in client.received if m.get("method") == "$/progress"]


def test_a_big_run_shows_progress_while_it_is_first_checked(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 2000, 7, fault_free=True)
    block = "\n".join(lines) + "\n"
    big = block * (PROGRESS_CHARS // len(block) + 1)
    client = RawClient()
    try:
        client.initialize(tmp_path, {"window": {"workDoneProgress": True}})
        small = client.open(tmp_path / "small.jsonl", block)
        client.diagnostics(small, 1, timeout=120)
        assert not [m for m in client.server_requests if m["method"] == "window/workDoneProgress/create"]
        uri = client.open(tmp_path / "big.jsonl", big)
        client.diagnostics(uri, 1, timeout=300)
        client.wait_for(
            lambda m: m.get("method") == "$/progress" and m["params"]["value"]["kind"] == "end", 60
        )
        created = [m for m in client.server_requests if m["method"] == "window/workDoneProgress/create"]
        assert len(created) == 1
        assert _progress(client) == ["begin"]  # the end was taken by wait_for
    finally:
        client.close()
