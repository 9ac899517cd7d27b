"""Memory stays proportional to the open text: typing (through states that are not valid
JSON) keeps no earlier version alive, and a closed document is let go. Measured as the
server process's resident size, over raw JSON-RPC."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.raw_client import RawClient, position_change
from tests.helpers.report_factory import generate_run

#: resident size after the edits / after the first check (the leak made it 25x)
GROWTH_MAX = 1.5
TYPED = 1000


def _run(reports: int, seed: int) -> str:
    lines, _ = generate_run("rag25", reports, seed, fault_free=True)
    return "\n".join(lines) + "\n"


def test_a_thousand_typed_characters_keep_no_old_text(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    text = _run(300, 3)
    path = tmp_path / "typed.jsonl"
    client = RawClient()
    try:
        client.initialize(tmp_path, {"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
        uri = client.open(path, text)
        client.diagnostics(uri, 1, timeout=60)
        # answered once the server is loaded: the first diagnostics may come before (early_check.py)
        client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, timeout=60)
        after_first = client.rss_bytes()
        first_line = text[: text.index("\n")]
        column = len(first_line) - 1  # before the report's closing brace
        typing = "".join(f', "k{n}": {n}' for n in range(TYPED))[:TYPED]  # mostly not valid JSON yet
        for n, ch in enumerate(typing):
            client.change(uri, n + 2, [position_change(0, column, column, ch)])
            column += 1
        client.diagnostics(uri, TYPED + 1, timeout=120)
        grown = client.rss_bytes() / after_first
        assert grown <= GROWTH_MAX, f"{grown:.2f}x the resident size after {TYPED} typed characters"
    finally:
        client.close()


def test_closed_documents_are_let_go(tmp_path: Path) -> None:
    """Opening and closing the same big run again and again does not add up."""
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    text = _run(1000, 4) * 4  # about 5 MB
    path = tmp_path / "big.jsonl"
    client = RawClient()
    try:
        client.initialize(tmp_path, {"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
        sizes = []
        for round_ in range(6):
            uri = client.open(path, text, version=round_ + 1)
            assert client.diagnostics(uri, round_ + 1, timeout=120)
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            assert client.diagnostics(uri, None, timeout=20) == []  # cleared on close
            sizes.append(client.rss_bytes())
        assert sizes[-1] <= sizes[1] * 1.2, [s // 2**20 for s in sizes]
    finally:
        client.close()
