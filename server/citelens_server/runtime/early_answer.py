"""The `initialize` answer, written before the server is loaded.

Loading pygls and lsprotocol (about 570 attrs classes) is most of the time from process
start to the `initialize` answer, and that answer (the server's capabilities) is the same
on every start with the same code and the same client capabilities. So `__main__` reads
the first message in a thread while the main thread loads the server; when it is
`initialize` and the answer of its key is kept in the user's cache
(`server/initialize-<key>.json`), it is written at once. The server then handles that
same message as always (its state is made from it) and the protocol hands its own
answer to `settle`: the answer already sent is not written twice, a first answer is kept
for the next start, and one that differs from what was sent (only possible if the code
changed and kept every file's size and mtime) replaces the entry and is logged.

The key is the client's capabilities, the Python version, and the size and mtime of
every module of the server, the engine, pygls and lsprotocol: an upgrade or an edit only
misses. Parameters that look wrong (they would get an error, not an answer) are never
answered early.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from citelens_server.runtime.fd_reader import Reader, header_at_start

log = logging.getLogger("citelens_server")

#: the packages whose code makes the answer
PACKAGES = ("citelens_server", "citelens", "pygls", "lsprotocol")
MAX_HEADER_LINES = 32
KEEP = 8  # answers kept (one per client profile and code version)
#: notifications the read-ahead goes past, looking for a `didOpen`
READ_PAST = ("initialized", "$/setTrace")


def _package_dir(name: str) -> str | None:
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__file__", None):
        return os.path.dirname(module.__file__ or "")
    spec = importlib.util.find_spec(name)  # a top-level package: found, not imported
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return locations[0] if locations else None


def code_stamps() -> list[tuple[str, int, int]]:
    """(path, size, mtime) of every module the answer is made by."""
    stamps: list[tuple[str, int, int]] = []
    for name in PACKAGES:
        top = _package_dir(name)
        if top is None:
            stamps.append((name, -1, -1))
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for file in sorted(files):
                if file.endswith(".py"):
                    st = os.stat(os.path.join(folder, file))
                    stamps.append((os.path.join(folder, file), st.st_size, st.st_mtime_ns))
    return stamps


def answer_key(params: Any) -> str | None:
    """The key of the answer to these `initialize` params (None: do not answer early)."""
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return None
    checks = (
        ("processId", (int, type(None))),
        ("rootUri", (str, type(None))),
        ("rootPath", (str, type(None))),
        ("workspaceFolders", (list, type(None))),
        ("clientInfo", (dict,)),
        ("locale", (str,)),
        ("trace", (str,)),
    )
    for field, kinds in checks:
        if field in params and not isinstance(params[field], kinds):
            return None
    if params.get("trace", "off") not in ("off", "messages", "verbose"):
        return None
    for folder in params.get("workspaceFolders") or ():
        if not (
            isinstance(folder, dict)
            and isinstance(folder.get("uri"), str)
            and isinstance(folder.get("name"), str)
        ):
            return None
    made_of = {"python": sys.version, "capabilities": params["capabilities"], "code": code_stamps()}
    return hashlib.sha256(json.dumps(made_of, sort_keys=True).encode()).hexdigest()[:32]


def read_message(stream: Reader) -> tuple[bytes, dict[str, Any] | None]:
    """One framed message: the bytes read, and the message (None if it is not one)."""
    raw = b""
    length = None
    for _ in range(MAX_HEADER_LINES):
        line = stream.readline()
        raw += line
        if not line:
            return raw, None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value)
    else:
        return raw, None
    if length is None:
        return raw, None
    body = stream.read(length)
    raw += body
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):  # not JSON (or nested too deep): the server says so
        return raw, None
    return raw, message if isinstance(message, dict) else None


class Prefixed:
    """A stdin that gives the bytes read ahead first (pygls reads with readline and read).
    `more` (blocking) gives the next bytes read ahead while the read-ahead goes on, then
    b"": the rest is read from `rest`."""

    def __init__(self, head: bytes, rest: Reader, more: Callable[[], bytes] | None = None) -> None:
        self._head = head
        self._rest = rest
        self._more = more

    def _ahead(self) -> bytes:
        """The bytes read ahead not given yet (b"": none are left)."""
        while not self._head and self._more is not None:
            self._head = self._more()
            if not self._head:
                self._more = None
        return self._head

    def has_header(self) -> bool:
        """Whether the next message's header is here already (as `FdReader.has_header`)."""
        if self._head:
            return header_at_start(self._head)
        has = getattr(self._rest, "has_header", None)
        return self._more is None and has is not None and bool(has())

    def readline(self) -> bytes:
        line = b""
        while self._ahead():
            at = self._head.find(b"\n") + 1
            if at:
                line, self._head = line + self._head[:at], self._head[at:]
                return line
            line, self._head = line + self._head, b""
        return line + self._rest.readline()

    def read(self, n: int, /) -> bytes | bytearray:
        data = b""
        while len(data) < n and self._ahead():
            take = n - len(data)
            data, self._head = data + self._head[:take], self._head[take:]
        if len(data) < n:
            data += self._rest.read(n - len(data))
        return data


class EarlyAnswer:
    """Reads the first message in a thread and answers it from the cache when it can."""

    def __init__(self, stdin: Reader, out: BinaryIO, cache_dir: Path, hold_s: float = 0.0) -> None:
        self.stdin = stdin
        self.out = out
        self.cache_dir = cache_dir
        #: how long a ready answer may wait for `release` (0: it is written at once)
        self.hold_s = hold_s
        self.msg_id: Any = None  # the `initialize` request read ahead (None: not one)
        self.key: str | None = None
        self.sent: dict[str, Any] | None = None  # the answer written early
        #: the params of the `initialize` answered early (set when its answer is ready)
        self.params: dict[str, Any] | None = None
        self.opened: dict[str, Any] | None = None  # a `didOpen` read ahead (early_check.py)
        self._head = b""
        self._ahead: list[bytes] = []  # messages read after the first, not given yet
        self._reading = True  # the thread is reading (more may come)
        self._stop = False  # the server takes over: read no further than the message in hand
        self._first = threading.Event()  # the first message is read (and answered or not)
        self._ready = threading.Event()  # the first message is read (and its answer made, if any)
        self._release = threading.Event()  # a held answer may be written
        self._lock = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="citelens-early-answer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stdin_for_server(self) -> Prefixed:
        """The server's input: the messages read ahead, then the rest. Waits for the first
        message only; a message still being read ahead is given when it is in."""
        self._first.wait()
        with self._lock:
            self._stop = True
        return Prefixed(self._head, self.stdin, self._next_ahead)

    def pending(self, timeout: float) -> dict[str, Any] | None:
        """The params of the `initialize` about to be answered early (None: it will not be,
        or it is not in within `timeout` seconds)."""
        return self.params if self._ready.wait(timeout) else None

    def release(self) -> None:
        """Let a held answer be written (at once if it is ready)."""
        self._release.set()

    def answered(self, timeout: float) -> bool:
        """Whether the first message was `initialize`, answered early (waits for it at
        most `timeout` seconds: False if it is not in by then)."""
        return self._first.wait(timeout) and self.sent is not None

    def wait_for_open(self, timeout: float) -> dict[str, Any] | None:
        """The `didOpen` that follows an early answer (only `initialized` before it), if
        one comes within `timeout` seconds; after that the read-ahead stops."""
        self._first.wait()
        with self._lock:
            self._lock.wait_for(lambda: self.opened is not None or not self._reading, timeout)
            self._stop = True
            return self.opened

    def _next_ahead(self) -> bytes:
        with self._lock:
            self._lock.wait_for(lambda: bool(self._ahead) or not self._reading)
            return self._ahead.pop(0) if self._ahead else b""

    def _path(self, key: str) -> Path:
        return self.cache_dir / f"initialize-{key}.json"

    def _run(self) -> None:
        try:
            if self._answer():
                self._read_ahead()
        finally:
            with self._lock:
                self._reading = False
                self._lock.notify_all()
            self._ready.set()
            self._first.set()

    def _read_ahead(self) -> None:
        """After an early answer, while the server loads: `initialized` and then a `didOpen`
        are read ahead for early_check.py; anything else, or the server taking over, ends it."""
        self._first.set()
        while True:
            raw, message = read_message(self.stdin)
            with self._lock:
                if raw:
                    self._ahead.append(raw)
                    self._lock.notify_all()
                method = message.get("method") if message is not None else None
                if method == "textDocument/didOpen" and not self._stop:
                    self.opened = message
                if self._stop or method not in READ_PAST:
                    return  # after the `didOpen` too: one document is checked early

    def _answer(self) -> bool:
        """Read the first message; True when it was `initialize`, answered early."""
        self._head, message = read_message(self.stdin)
        if not message or message.get("method") != "initialize" or "id" not in message:
            return False
        if not isinstance(message["id"], (int, str)):
            return False
        try:
            self.key = answer_key(message.get("params"))
        except (OSError, TypeError, ValueError):
            self.key = None
        self.msg_id = message["id"]
        if self.key is None:
            return False
        try:
            kept = json.loads(self._path(self.key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(kept, dict) or not isinstance(kept.get("capabilities"), dict):
            return False
        body = json.dumps({"jsonrpc": "2.0", "id": self.msg_id, "result": kept}, separators=(",", ":"))
        data = body.encode("utf-8")
        header = (
            f"Content-Length: {len(data)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        )
        self.params = message.get("params")
        self._ready.set()
        self._release.wait(self.hold_s)  # see `hold_s`: what `__main__` does first (early_check.py)
        try:
            self.out.write(header.encode("ascii") + data)
            self.out.flush()
        except OSError:  # the client is gone: the server finds out when it writes
            return False
        self.sent = kept
        return True

    def settle(self, msg_id: Any, result: dict[str, Any] | None) -> bool:
        """The server's own answer to the request read ahead: True when it was already
        sent (do not write it again). A new or changed answer is kept for the next start."""
        if msg_id != self.msg_id or self.msg_id is None:
            return False
        sent = self.sent
        self.msg_id = None  # settled once
        if result is None:  # an error: never keep it; one answer was already written
            if sent is not None:
                log.warning("initialize: answered from the start-up cache, but the server failed it")
            return sent is not None
        if sent == result:
            return True
        if sent is not None:
            log.warning(
                "initialize: the kept answer was out of date (replaced; restart the server to use it)"
            )
        self._keep(result)
        return sent is not None

    def _keep(self, result: dict[str, Any]) -> None:
        if self.key is None:
            return
        from citelens.files import FileError, write_file

        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            write_file(self._path(self.key), json.dumps(result, sort_keys=True).encode("utf-8"))
            kept = sorted(self.cache_dir.glob("initialize-*.json"), key=lambda p: p.stat().st_mtime)
            for old in kept[:-KEEP]:  # other clients' answers stay; old code's go
                old.unlink(missing_ok=True)
        except (FileError, OSError, ValueError) as exc:
            log.info("initialize answer not kept (%s)", exc)
