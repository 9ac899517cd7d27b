"""The protocol as the LSP specification writes it, over raw JSON-RPC: lifecycle order,
invalid params, a byte-order mark, and an edit that cannot apply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.raw_client import RawClient, position_change
from tests.helpers.report_factory import generate_run

PUSH: dict[str, Any] = {
    "textDocument": {"publishDiagnostics": {"versionSupport": True}, "hover": {"contentFormat": ["markdown"]}}
}


def _client(tmp_path: Path, encoding: str = "utf-16") -> RawClient:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    client = RawClient()
    caps = {**PUSH, "general": {"positionEncodings": [encoding]}}
    answer = client.initialize(tmp_path, caps)
    assert answer["result"]["capabilities"]["positionEncoding"] == encoding
    return client


def _run() -> str:
    """A rag25 run whose first report is clean (with citations to hover) and whose others
    have findings."""
    clean, _ = generate_run("rag25", 2, 5, fault_free=True)
    faulty, _ = generate_run("rag25", 3, 1)
    return "\n".join([clean[0], *faulty]) + "\n"


def test_requests_before_initialize_are_refused_and_notifications_dropped(tmp_path: Path) -> None:
    client = RawClient()
    try:
        answer = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": "file:///r.jsonl"}, "position": {"line": 0, "character": 0}},
        )
        assert answer["error"]["code"] == -32002
        answer = client.request(
            "workspace/executeCommand", {"command": "citelens.checkWorkspace", "arguments": []}
        )
        assert answer["error"]["code"] == -32002 and "traceback" not in json.dumps(answer)
        early = tmp_path / "early.jsonl"
        client.open(early, "not json\n")  # dropped: the server is not initialized
        (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
        assert "result" in client.initialize(tmp_path, PUSH)
        assert (
            client.request("textDocument/documentSymbol", {"textDocument": {"uri": early.as_uri()}})["result"]
            == []
        )
    finally:
        assert client.close() == 0


def test_a_second_initialize_and_requests_after_shutdown_are_invalid(tmp_path: Path) -> None:
    client = _client(tmp_path)
    again = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert again["error"]["code"] == -32600
    assert "result" in client.request("shutdown")
    late = client.request("workspace/symbol", {"query": ""})
    assert late["error"]["code"] == -32600
    client.notify("exit")
    assert client.proc.wait(20) == 0


def test_exit_without_shutdown_ends_with_code_1(tmp_path: Path) -> None:
    client = _client(tmp_path)
    client.notify("exit")
    assert client.proc.wait(20) == 1


def test_invalid_params_are_answered_32602(tmp_path: Path) -> None:
    client = _client(tmp_path)
    try:
        bad = client.request("textDocument/hover", {"textDocument": 5})
        assert bad["error"]["code"] == -32602 and "textDocument/hover" in bad["error"]["message"]
        missing = client.request("textDocument/codeAction", {"textDocument": {"uri": "file:///x.jsonl"}})
        assert missing["error"]["code"] == -32602
        assert not [line for line in client.stderr if b"Traceback" in line]
        assert client.request("workspace/symbol", {"query": ""})["result"] == []  # still serving
    finally:
        assert client.close() == 0


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_a_byte_order_mark_is_not_json_and_positions_stay_right(tmp_path: Path, encoding: str) -> None:
    text = _run()
    client = _client(tmp_path, encoding)
    try:
        plain = client.open(tmp_path / "plain.jsonl", text)
        expected = client.diagnostics(plain, 1)
        marked = client.open(tmp_path / "marked.jsonl", "\ufeff" + text)
        got = client.diagnostics(marked, 1)
        assert "json_syntax" not in [d["code"] for d in got]
        width = 3 if encoding == "utf-8" else 1  # U+FEFF in the client's units

        def shifted(d: dict[str, Any]) -> tuple[Any, ...]:
            r = d["range"]
            return (
                d["code"],
                d["message"],
                (r["start"]["line"], r["start"]["character"] + (width if r["start"]["line"] == 0 else 0)),
                (r["end"]["line"], r["end"]["character"] + (width if r["end"]["line"] == 0 else 0)),
            )

        def place(d: dict[str, Any]) -> tuple[Any, ...]:
            r = d["range"]
            return (
                d["code"],
                d["message"],
                (r["start"]["line"], r["start"]["character"]),
                (r["end"]["line"], r["end"]["character"]),
            )

        assert sorted(map(place, got)) == sorted(map(shifted, expected))
        # a position the client computed on its own text (BOM included) names the same token
        first = text[: text.index("\n")]
        key = first.index('"citations"')
        column = len(first[:key].encode("utf-8" if encoding == "utf-8" else "utf-16-le")) // (
            1 if encoding == "utf-8" else 2
        )
        hover = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": marked}, "position": {"line": 0, "character": column + width + 1}},
        )
        plain_hover = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": plain}, "position": {"line": 0, "character": column + 1}},
        )
        assert (
            hover["result"] is not None and hover["result"]["contents"] == plain_hover["result"]["contents"]
        )
    finally:
        client.close()


def test_an_edit_that_cannot_apply_resyncs_from_disk(tmp_path: Path) -> None:
    text = _run()
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    client = _client(tmp_path)
    try:
        uri = client.open(path, text)
        expected = client.diagnostics(uri, 1)
        client.change(uri, 2, [position_change(0, 0, 0, "x")])  # the client's text now differs
        client.diagnostics(uri, 2)
        past_end = {
            "range": {"start": {"line": 40, "character": 0}, "end": {"line": 41, "character": 0}},
            "text": "y",
        }
        client.change(uri, 3, [past_end])
        again = client.diagnostics(uri, 3)
        assert again == expected  # the text on disk, checked again at the client's version
        warned = client.wait_for(
            lambda m: m.get("method") == "window/logMessage" and "cannot apply" in m["params"]["message"]
        )
        assert "40:0-41:0" in warned["params"]["message"]
    finally:
        assert client.close() == 0


def test_an_untitled_document_that_diverges_is_dropped(tmp_path: Path) -> None:
    client = _client(tmp_path)
    try:
        uri = "untitled:scratch.jsonl"
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "jsonl", "version": 1, "text": "not json\n"}},
        )
        assert client.diagnostics(uri, 1)  # checked: `not json` is a finding
        client.change(
            uri,
            2,
            [
                {
                    "range": {"start": {"line": 9, "character": 0}, "end": {"line": 9, "character": 0}},
                    "text": "z",
                }
            ],
        )
        assert client.diagnostics(uri) == []  # withdrawn: nothing is shown on a text it lost
    finally:
        assert client.close() == 0
