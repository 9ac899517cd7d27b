"""`initialize` is answered before the engine loads: a fresh server process that has
answered it holds no rule, spec table or settings loader yet (the session makes them
after the answer, or on first use), and still gives the CLI's findings on first use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys
from citelens_server.app import create_server

server = create_server()
written = []
class Writer:
    def write(self, data): written.append(data)
    def close(self): pass
server.protocol.set_writer(Writer())
message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "processId": None, "rootUri": sys.argv[1], "capabilities": {}}}
server.protocol.handle_message(server.protocol.structure_message(message))
body = written[0].decode().split("\r\n\r\n", 1)[1]
heavy = sorted(m for m in ("citelens.check.engine", "citelens.check.registry", "citelens.config.loader",
                          "citelens.specs.loader", "citelens.session.workspace", "pydantic") if m in sys.modules)
doc = server.session.open(sys.argv[2], open(sys.argv[3], encoding="utf-8").read(), 1)
print(json.dumps({"answer": json.loads(body), "heavy": heavy,
                  "codes": sorted(f.code for f in doc.result.findings)}))
"""


def test_initialize_is_answered_before_the_engine_loads(tmp_path: Path) -> None:
    from tests.helpers.lsp_session import cli_findings
    from tests.helpers.report_factory import generate_run

    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 30, 5)
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, tmp_path.as_uri(), path.as_uri(), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["answer"]["id"] == 1 and "textDocumentSync" in result["answer"]["result"]["capabilities"]
    assert result["heavy"] == []  # nothing of the engine before the answer
    assert result["codes"] == sorted(f["code"] for f in cli_findings(path))  # made on first use


FEATURES_SCRIPT = r"""
import asyncio, json, sys
from citelens.session.warm import FEATURE_MODULES
from citelens_server.app import create_server

async def main():
    server = create_server()
    written = []
    class Writer:
        def write(self, data): written.append(data)
        def close(self): pass
    protocol = server.protocol
    protocol.set_writer(Writer())
    def send(message):
        protocol.handle_message(protocol.structure_message({"jsonrpc": "2.0", **message}))
    send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": sys.argv[1], "capabilities": {}}})
    send({"method": "initialized", "params": {}})
    before = sorted(m for m in FEATURE_MODULES if m in sys.modules)
    text = open(sys.argv[3], encoding="utf-8").read()
    item = {"uri": sys.argv[2], "languageId": "jsonl", "version": 1, "text": text}
    send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
    while not any(b"publishDiagnostics" in w for w in written):
        await asyncio.sleep(0.01)
    for _ in range(3000):  # the worker that loads them, however slow the machine
        if all(m in sys.modules for m in FEATURE_MODULES):
            break
        await asyncio.sleep(0.01)
    print(json.dumps({"before": before, "after": sorted(m for m in FEATURE_MODULES if m in sys.modules)}))

asyncio.run(main())
"""


def test_the_editor_features_are_loaded_once_the_first_diagnostics_are_out(tmp_path: Path) -> None:
    """So the first hover does not import them while a big file is being read."""
    from citelens.session.warm import FEATURE_MODULES
    from tests.helpers.report_factory import generate_run

    lines, _ = generate_run("rag25", 5, 5)
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", FEATURES_SCRIPT, tmp_path.as_uri(), path.as_uri(), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(FEATURE_MODULES) - set(result["before"])  # some would wait for the first hover
    assert result["after"] == sorted(FEATURE_MODULES)
