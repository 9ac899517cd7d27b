"""A check that fails is a result: after a settings typo, a missing topics file or an
internal error in the check, every kind of request about the run is answered (from what
is known), the server goes idle, and the next edit or settings change checks once more.
Over raw JSON-RPC, so the process's CPU time can be read."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from tests.report_factory import generate_run
from tests.server.raw_client import RawClient

#: what "answered" means here: a stuck server never answers; a busy one answers late
ANSWER_S = 1.0
#: CPU an idle server may use in a second (the stuck one burnt a whole core)
IDLE_CPU_S = 0.1

CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "codeAction": {"resolveSupport": {"properties": ["edit"]}},
        "publishDiagnostics": {"versionSupport": True},
    },
    "workspace": {"configuration": False},
}
PULL = {**CAPABILITIES, "textDocument": {**CAPABILITIES["textDocument"], "diagnostic": {}}}

FAILURES = {
    "spec typo": ('spec = "rag52"\n', "run.jsonl", "rag52"),
    "missing topics": ('spec = "rag25"\ntopics = "no-such-topics.jsonl"\n', "run.jsonl", "no-such-topics"),
    "internal error": ('spec = "rag25"\n', "boom.jsonl", "internal error"),
}


def _requests(uri: str, line: int, column: int) -> dict[str, tuple[str, Any]]:
    doc = {"uri": uri}
    here = {"line": line, "character": column}
    span = {"start": {"line": 0, "character": 0}, "end": {"line": line + 1, "character": 0}}
    return {
        "hover": ("textDocument/hover", {"textDocument": doc, "position": here}),
        "documentSymbol": ("textDocument/documentSymbol", {"textDocument": doc}),
        "codeAction": (
            "textDocument/codeAction",
            {"textDocument": doc, "range": span, "context": {"diagnostics": []}},
        ),
        "definition": ("textDocument/definition", {"textDocument": doc, "position": here}),
        "references": (
            "textDocument/references",
            {"textDocument": doc, "position": here, "context": {"includeDeclaration": True}},
        ),
        "inlayHint": ("textDocument/inlayHint", {"textDocument": doc, "range": span}),
        "foldingRange": ("textDocument/foldingRange", {"textDocument": doc}),
        "workspaceSymbol": ("workspace/symbol", {"query": ""}),
        "showDocument": (
            "workspace/executeCommand",
            {"command": "citelens.showDocument", "arguments": [uri, line, column]},
        ),
    }


def _run(folder: Path, name: str) -> tuple[Path, str, int, int]:
    """A small valid rag25 run, and the line and column of a citation in it."""
    lines, _ = generate_run("rag25", 4, 5, fault_free=True)
    text = "\n".join(lines) + "\n"
    first = lines[0]
    doc_id = next(c for s in json.loads(first)["answer"] for c in s.get("citations") or ())
    column = first.index(json.dumps(doc_id), first.index('"answer"')) + 2
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path, text, 0, column


def _client(tmp_path: Path, settings: str, capabilities: dict[str, Any]) -> RawClient:
    (tmp_path / "citelens.toml").write_text(settings, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    import sys

    client = RawClient([sys.executable, "-m", "tests.server.faulty_server"], cwd=root)
    client.initialize(tmp_path, capabilities)
    return client


def _idle_cpu(client: RawClient) -> float:
    time.sleep(0.3)  # what was queued settles
    before = client.cpu_seconds()
    time.sleep(1.0)
    return client.cpu_seconds() - before


@pytest.mark.parametrize("failure", list(FAILURES))
def test_every_request_is_answered_after_a_failed_check(tmp_path, failure):
    settings, name, why = FAILURES[failure]
    client = _client(tmp_path, settings, CAPABILITIES)
    try:
        path, text, line, column = _run(tmp_path, name)
        uri = client.open(path, text)
        shown = client.diagnostics(uri, 1)
        assert [d["code"] for d in shown] == ["settings"] and why in shown[0]["message"]

        for kind, (method, params) in _requests(uri, line, column).items():
            answer = client.request(method, params, timeout=ANSWER_S)
            assert "error" not in answer, (kind, answer)
            if kind == "hover":  # says why it shows no evidence
                assert why in answer["result"]["contents"]["value"]
        assert _idle_cpu(client) < IDLE_CPU_S

        # the next edit checks once more: one publish, for the new version
        client.change(uri, 2, [{"text": text + "\n"}])
        assert [d["code"] for d in client.diagnostics(uri, 2)] == ["settings"]
        assert _idle_cpu(client) < IDLE_CPU_S
        later = [m for m in client.received if m.get("method") == "textDocument/publishDiagnostics"]
        assert not [m for m in later if m["params"]["uri"] == uri], "checked more than once"

        errors = [line for line in client.stderr if b" ERROR " in line]
        assert len(errors) <= 1, errors  # an internal error is logged once, not per retry
    finally:
        assert client.close() == 0


def test_a_fixed_setting_is_checked_again(tmp_path):
    client = _client(tmp_path, 'spec = "rag52"\n', CAPABILITIES)
    try:
        path, text, _, _ = _run(tmp_path, "run.jsonl")
        uri = client.open(path, text)
        assert [d["code"] for d in client.diagnostics(uri, 1)] == ["settings"]
        (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
        client.notify(
            "workspace/didChangeWatchedFiles",
            {"changes": [{"uri": (tmp_path / "citelens.toml").as_uri(), "type": 2}]},
        )
        assert "settings" not in [d["code"] for d in client.diagnostics(uri, 1)]
        assert _idle_cpu(client) < IDLE_CPU_S
    finally:
        assert client.close() == 0


@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_pull_client_is_answered_after_a_failed_check(tmp_path, failure):
    settings, name, why = FAILURES[failure]
    client = _client(tmp_path, settings, PULL)
    try:
        path, text, line, column = _run(tmp_path, name)
        uri = client.open(path, text)
        pulled = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=20)
        items = pulled["result"]["items"]
        assert [d["code"] for d in items] == ["settings"] and why in items[0]["message"]
        for kind, (method, params) in _requests(uri, line, column).items():
            answer = client.request(method, params, timeout=ANSWER_S)
            assert "error" not in answer, (kind, answer)
        assert _idle_cpu(client) < IDLE_CPU_S
    finally:
        assert client.close() == 0
