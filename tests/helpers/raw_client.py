"""A plain JSON-RPC client over the server's stdio, for what pytest-lsp hides: malformed
messages, lifecycle order, the process's exit code, CPU time and memory.

Messages are read by a thread into a queue; `request` waits for the answer to its id,
keeping every other message (notifications, server requests) in `received`.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "citelens_server"]
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class RawClient:
    def __init__(
        self, command: list[str] | None = None, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            command or SERVER,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self.ids = itertools.count(1)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.received: list[dict[str, Any]] = []
        #: method -> the answer to a server request (default: null); each request is kept
        self.answers: dict[str, Any] = {}
        self.server_requests: list[dict[str, Any]] = []
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # --- wire -------------------------------------------------------------------------
    def send(self, message: dict[str, Any] | bytes) -> None:
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            self.inbox.put(json.loads(out.read(length)))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)

    # --- messages ---------------------------------------------------------------------
    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_id(self, method: str, params: Any = None) -> int:
        msg_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def request(self, method: str, params: Any = None, timeout: float = 20.0) -> dict[str, Any]:
        """The whole response message (with `result` or `error`)."""
        return self.answer(self.request_id(method, params), timeout)

    def answer(self, msg_id: int, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def wait_for(self, wanted: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first message (already received or arriving within `timeout`) that `wanted`
        accepts; server requests met on the way are answered with null."""
        for message in self.received:
            if wanted(message):
                self.received.remove(message)
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message within {timeout} s")
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise EOFError("the server closed its output")
            if "method" in message and "id" in message:  # a server request
                self.server_requests.append(message)
                result = self.answers.get(message["method"])
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            if wanted(message):
                return message
            self.received.append(message)

    def diagnostics(
        self, uri: str, version: int | None = None, timeout: float = 20.0
    ) -> list[dict[str, Any]]:
        """The diagnostics of the next publish for `uri` (at `version`, if given)."""

        def wanted(m: dict[str, Any]) -> bool:
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            params = m["params"]
            return params["uri"] == uri and (version is None or params.get("version") == version)

        return list(self.wait_for(wanted, timeout)["params"]["diagnostics"])

    # --- sessions -----------------------------------------------------------------------
    def initialize(
        self, folder: Path, capabilities: dict[str, Any] | None = None, **options: Any
    ) -> dict[str, Any]:
        answer = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": folder.as_uri(),
                "workspaceFolders": [{"uri": folder.as_uri(), "name": "ws"}],
                "capabilities": capabilities or {},
                "initializationOptions": {"debounceMs": 0, **options},
            },
        )
        self.notify("initialized", {})
        return answer

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "jsonl", "version": version, "text": text}},
        )
        return uri

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    def close(self, timeout: float = 20.0) -> int:
        """shutdown, exit; the exit code."""
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None, timeout)
                self.notify("exit")
            except (OSError, EOFError, TimeoutError):
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    # --- the process ------------------------------------------------------------------------
    def cpu_seconds(self) -> float:
        """User + system CPU time the server has used so far (all its threads)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_bytes(self) -> int:
        return int(Path(f"/proc/{self.proc.pid}/statm").read_text().split()[1]) * PAGE


def opened_run(folder: Path, text: str, spec: str = "rag25") -> tuple[RawClient, str, Path]:
    """(client, uri, path) of a server started in `folder` (its project file naming `spec`)
    with `text` written to `run.jsonl` and opened; the caller closes the client."""
    (folder / "citelens.toml").write_text(f'spec = "{spec}"\n', encoding="utf-8")
    run = folder / "run.jsonl"
    run.write_text(text, encoding="utf-8")
    client = RawClient(cwd=folder)
    client.initialize(folder)
    return client, client.open(run, text), run


def position_change(line: int, character: int, end_character: int, text: str) -> dict[str, Any]:
    """An incremental change on one line."""
    return {
        "range": {
            "start": {"line": line, "character": character},
            "end": {"line": line, "character": end_character},
        },
        "text": text,
    }


def frame(message: dict[str, Any]) -> bytes:
    """One JSON-RPC message with its Content-Length header."""
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_framed(stream: Any) -> Any:
    """The next framed message of a byte stream (headers by line, the body by length)."""
    length = 0
    while (line := stream.readline().strip()) != b"":
        if line.lower().startswith(b"content-length"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))
