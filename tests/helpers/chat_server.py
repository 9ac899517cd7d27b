"""A stand-in for an OpenAI-compatible chat-completions endpoint, for the llm judge's tests:
a real HTTP server on 127.0.0.1 (a free port), started by the test, that records every
request and answers as the test scripts it. It is no model: it says what it is told.
`Gate` makes it a slow endpoint whose answers wait until the test lets them go."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: a status, a chat completion's text (or a raw body), headers."""

    text: str = "Full Support"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ChatServer:
    """`answer(body) -> Reply` decides each answer; `requests` records what came in."""

    def __init__(self, answer: Callable[[dict[str, Any]], Reply]) -> None:
        self.answer = answer
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)  # told of every request recorded
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server.arrived:
                    server.requests.append(Recorded(self.path, dict(self.headers.items()), body))
                    server.arrived.notify_all()
                reply = server.answer(body)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.raw
                if payload is None:
                    completion = {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.text},
                                "finish_reason": "stop",
                            }
                        ],
                    }
                    payload = json.dumps(completion).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def prompts(self) -> list[str]:
        return [r.body["messages"][0]["content"] for r in self.requests]

    def wait_for_requests(self, n: int, timeout: float = 15.0) -> None:
        """Block until `n` requests have come (AssertionError after `timeout` seconds)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.requests) >= n, timeout), (
                f"{len(self.requests)} request(s) came, not {n}"
            )


class Gate:
    """A slow endpoint, as an `answer` for `chat_server`: the first `free` requests get
    `reply` at once, every later one waits until `open()` (at most `hold` seconds, so
    that nothing hangs when a test fails). `answered` holds the prompts answered at once."""

    def __init__(self, reply: Reply, free: int = 0, hold: float = 30.0) -> None:
        self.reply, self.free, self.hold = reply, free, hold
        self.opened = threading.Event()
        self.answered: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            now = len(self.answered) < self.free
            if now:
                self.answered.append(body["messages"][0]["content"])
        if not now:
            self.opened.wait(self.hold)
        return self.reply

    def open(self) -> None:
        self.opened.set()


@contextmanager
def chat_server(answer: Callable[[dict[str, Any]], Reply] | None = None) -> Iterator[ChatServer]:
    server = ChatServer(answer or (lambda body: Reply()))
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
        thread.join(5)
