"""Code actions never compute a whole-file edit for a light-bulb request: a client without
`codeAction/resolve` (eglot, older Neovim) gets "Fix all" as a command that computes the
edit when chosen, and that edit is `citelens check --fix`'s. While it is computed (in a
worker), another file's hover is answered. Ordering is asserted, never timings."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from citelens.source.line_index import LineIndex
from tests.helpers.raw_client import RawClient
from tests.helpers.report_factory import generate_run

#: no resolveSupport: edits must come with the action or through a command
NO_RESOLVE: dict[str, Any] = {
    "textDocument": {
        "publishDiagnostics": {"versionSupport": True},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
    },
    "workspace": {"applyEdit": True},
}


def _apply(text: str, edits: list[dict[str, Any]]) -> str:
    index = LineIndex(text)
    spans = []
    for e in edits:
        r = e["range"]
        start = index.offset_at(r["start"]["line"], r["start"]["character"], "utf-16")
        end = index.offset_at(r["end"]["line"], r["end"]["character"], "utf-16")
        spans.append((start, end, e["newText"]))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _fixable_run(reports: int) -> str:
    lines, _ = generate_run("rag25", reports, 9)
    return "\n".join(lines) + "\n"


def test_fix_all_is_a_command_computed_when_chosen(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    text = _fixable_run(60)
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    client = RawClient()
    client.answers["workspace/applyEdit"] = {"applied": True}
    try:
        client.initialize(tmp_path, NO_RESOLVE)
        uri = client.open(path, text)
        diagnostics = client.diagnostics(uri, 1, timeout=60)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        answer = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diagnostics[:50]}},
        )
        actions = answer["result"]
        fix_all = [a for a in actions if a["title"].startswith("Fix all")]
        assert fix_all, [a["title"] for a in actions]
        for action in fix_all:  # no whole-file edit computed for the light bulb
            assert "edit" not in action or action["edit"] is None, action["title"]
            assert action["command"]["command"] == "citelens.applyCodeAction"
        (safe,) = [a for a in fix_all if a["kind"] == "source.fixAll.citelens"]
        done = client.request("workspace/executeCommand", safe["command"], timeout=60)
        assert done["result"] == {"applied": True}
        (applied,) = [m for m in client.server_requests if m["method"] == "workspace/applyEdit"]
        fixed = _apply(text, applied["params"]["edit"]["changes"][uri])

        copy = tmp_path / "cli-copy.jsonl"
        shutil.copyfile(path, copy)
        subprocess.run(
            [sys.executable, "-m", "citelens", "check", "--fix", str(copy)], capture_output=True, check=False
        )
        assert fixed == copy.read_text(encoding="utf-8") != text
    finally:
        client.close()


def test_a_fix_all_being_computed_holds_up_no_other_file(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    big_text = _fixable_run(2000)
    client = RawClient()
    client.answers["workspace/applyEdit"] = {"applied": True}
    try:
        client.initialize(tmp_path, NO_RESOLVE)
        big = client.open(tmp_path / "big.jsonl", big_text)
        client.diagnostics(big, 1, timeout=120)
        small_text = '{"metadata": {"run_id": "r"}, "answer": []}\n'
        small = client.open(tmp_path / "small.jsonl", small_text)
        client.diagnostics(small, 1, timeout=60)
        data = {"what": "fix_all", "code": None, "uri": big, "version": 1}
        order: list[str] = []
        fix_id = client.request_id(
            "workspace/executeCommand", {"command": "citelens.applyCodeAction", "arguments": [data]}
        )
        hover_id = client.request_id(
            "textDocument/hover", {"textDocument": {"uri": small}, "position": {"line": 0, "character": 2}}
        )
        wanted = {fix_id: "fix all", hover_id: "hover"}
        while len(order) < 2:
            message = client.wait_for(lambda m: m.get("id") in wanted and "method" not in m, timeout=300)
            order.append(wanted[message["id"]])
        assert order == ["hover", "fix all"]
    finally:
        client.close()
