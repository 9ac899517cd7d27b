"""A stand-in document service on 127.0.0.1 that records what it is sent, for the tests
of tokens, redirects, size limits and trust. Started by a test, stopped when it ends."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote


@dataclass
class Service:
    url: str  # http://127.0.0.1:PORT/v1/idx
    origin: str  # http://127.0.0.1:PORT
    seen: list[dict[str, str]] = field(default_factory=list)
    #: doc id -> (status, headers, body bytes); default: the document, found
    answers: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)
    #: the raw body to stream without a Content-Length (for the streamed cap)
    unsized: dict[str, bytes] = field(default_factory=dict)

    def authorizations(self) -> list[str | None]:
        return [s.get("authorization") for s in self.seen]


def _document(doc_id: str) -> bytes:
    return json.dumps({"docid": doc_id, "doc": {"contents": f"text of {doc_id}"}}).encode()


@contextmanager
def running_service(on_request: Callable[[Service, str], None] | None = None) -> Iterator[Service]:
    holder: list[Service] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_GET(self) -> None:
            service = holder[0]
            service.seen.append({"path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
            doc_id = unquote(self.path.rsplit("/doc/", 1)[-1])
            if on_request is not None:
                on_request(service, doc_id)
            if doc_id in service.unsized:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                body = service.unsized[doc_id]
                for i in range(0, len(body), 65536):
                    self.wfile.write(body[i : i + 65536])
                return
            status, headers, body = service.answers.get(doc_id, (200, {}, _document(doc_id)))
            self.send_response(status)
            for k, v in {"Content-Type": "application/json", **headers}.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.timeout = 5
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    holder.append(Service(f"{origin}/v1/idx", origin))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
