"""`citelens serve` is the language server: it answers `initialize` on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_citelens_serve_answers_initialize():
    cli = Path(sys.executable).with_name("citelens")
    proc = subprocess.Popen(
        [str(cli), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}},
            }
        ).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        length = int(proc.stdout.readline().split(b":")[1])
        while proc.stdout.readline() not in (b"\r\n", b""):
            pass
        answer = json.loads(proc.stdout.read(length))
        assert answer["id"] == 1
        assert answer["result"]["serverInfo"]["name"] == "citelens"
        assert answer["result"]["capabilities"]["hoverProvider"]
    finally:
        proc.kill()
        proc.wait()
