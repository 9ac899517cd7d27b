"""The stdio transport, off the event loop: messages are read, framed and decoded by a
reader thread and written by a writer thread, so a 50 MB `didOpen` or a
publishDiagnostics of 50,000 findings never holds up the answer to a hover on another
file.

pygls reads each header line and body through its thread pool (three round trips to the
loop per message) and then runs `json.loads` of the body on the loop: for a 50 MB
document that one C call holds the GIL for the whole text. Here one thread reads whole
messages and decodes them (`json_pieces`: a big body in pieces, so the loop can run
between them); the loop gets plain JSON values and only structures them into lsprotocol
messages, exactly as pygls's `object_hook` would (innermost object first), then handles
them in arrival order, except that a body of 1 MB or more is decoded in a thread of its
own and a message about another document may be handled before it (message_order.py).
A keystroke's `didChange` is read straight from its bytes (`change_from_bytes`), and the
ones of a document read one after the other go to the loop in one call (`Keystrokes`):
in a burst, the decoding and the loop's turn per message were most of the server's time.

Writing: a message is written at once when nothing is queued; a big one (and any written
while it is on its way) goes through a writer thread, in order, encoded a slice at a time.
The framing and error handling are pygls's (`pygls.io_.run_async`), pinned by the
protocol tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from citelens_server.runtime import json_pieces
from citelens_server.runtime.change_params import change_from_bytes
from citelens_server.runtime.fd_reader import FdReader
from citelens_server.runtime.inbox import Inbox
from citelens_server.runtime.message_order import MessageOrder, head_uri, value_uri

log = logging.getLogger("citelens_server")


class Served(Protocol):
    """What serving needs of the server (a `CiteLensServer`; not imported: it imports this)."""

    protocol: Any

    def report_server_error(self, error: Exception, source: Any) -> None: ...

    def shutdown(self) -> None: ...


CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")
#: bodies from this size are never a keystroke's `didChange` (not tried as one)
KEYSTROKE_BYTES = 4096
#: keystrokes read together handed to the loop in one call, at most
KEYSTROKES_AT_ONCE = 256
#: messages from which the writer thread writes (smaller ones: at once, when none queue)
BIG_WRITE = 1 << 20
#: characters encoded and written at a time
WRITE_SLICE = 1 << 20
#: seconds `close` waits for queued messages to be written
CLOSE_WAIT = 10.0


def serve(server: Served, stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Serve the client on stdin/stdout until it goes or `exit` arrives (as pygls's
    `start_io` does)."""
    stop = threading.Event()  # never set: the process ends with `exit` or the client's EOF
    writer = ThreadedWriter(stdout)
    server.protocol.set_writer(writer)
    try:
        asyncio.run(_serve(server, stdin, stop))
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


async def _serve(server: Served, stdin: IO[bytes], stop: threading.Event) -> None:
    loop = asyncio.get_running_loop()
    ended: asyncio.Future[None] = loop.create_future()
    protocol = server.protocol
    inbox = Inbox(loop)

    def handle(value: Any) -> None:  # on the loop, in arrival order
        if isinstance(value, Keystrokes):
            for params in value.params:
                try:
                    protocol.handle_change_params(params)
                except Exception as exc:
                    failed(exc)
            return
        try:
            if isinstance(value, dict) and protocol.handle_change(value):
                return  # a keystroke's didChange, straight from its JSON
            protocol.handle_message(structured(protocol.structure_message, value))
        except Exception as exc:
            failed(exc)

    def failed(exc: Exception) -> None:
        log.exception("Unable to handle message", exc_info=exc)
        try:
            server.report_server_error(exc, JsonRpcException)
        except Exception:
            log.warning("Failed to report error")

    def end() -> None:
        if not ended.done():
            ended.set_result(None)

    def decoded(value: Any) -> None:
        if isinstance(value, Undecodable):
            failed(value.error)
        else:
            handle(value)

    order = MessageOrder(decoded)

    def decode_apart(seq: int, uri: str | None, body: bytes | bytearray) -> None:  # its own thread
        inbox.put(order.arrive, seq, uri, _decode(body))

    def read() -> None:  # the reader thread
        source: Any = stdin
        with contextlib.suppress(AttributeError, OSError):
            source = FdReader(stdin.fileno())
        buffered = getattr(source, "has_header", lambda: False)
        keys = Keystrokes()
        try:
            for seq, body in enumerate(frames(source, stop)):
                params = change_from_bytes(body) if len(body) < KEYSTROKE_BYTES else None
                if params is not None:  # one call on the loop for the keystrokes read together
                    if keys.params and params.text_document.uri != keys.uri:
                        keys = _put_keys(inbox, order, keys)
                    keys.add(seq, params)
                    if len(keys.params) >= KEYSTROKES_AT_ONCE or not buffered():
                        keys = _put_keys(inbox, order, keys)
                    continue
                if keys.params:
                    keys = _put_keys(inbox, order, keys)
                if len(body) >= json_pieces.BIG:  # decoded apart: what follows may go ahead
                    uri = head_uri(body)
                    inbox.put(order.expect, seq, uri)
                    threading.Thread(
                        target=decode_apart, args=(seq, uri, body), name="citelens-decode", daemon=True
                    ).start()
                    continue
                value = _decode(body)
                inbox.put(
                    order.arrive,
                    seq,
                    None if isinstance(value, Undecodable) else value_uri(value),
                    value,
                )
        except Exception as exc:  # the client's end of the pipe is gone
            log.debug("reading stopped: %s", exc)
        finally:
            if keys.params:
                _put_keys(inbox, order, keys)
            inbox.put(end)

    threading.Thread(target=read, name="citelens-read", daemon=True).start()
    await ended


class Keystrokes:
    """`didChange` notifications of one document read one after the other
    (`change_from_bytes`), handed to the loop in one call: the first one's number orders
    them among the other messages (message_order.py)."""

    __slots__ = ("params", "seq", "uri")

    def __init__(self) -> None:
        self.seq = 0
        self.uri = ""
        self.params: list[types.DidChangeTextDocumentParams] = []

    def add(self, seq: int, params: types.DidChangeTextDocumentParams) -> None:
        if not self.params:
            self.seq, self.uri = seq, params.text_document.uri
        self.params.append(params)


def _put_keys(inbox: Inbox, order: MessageOrder, keys: Keystrokes) -> Keystrokes:
    """`keys` queued for the loop; a new, empty group to fill."""
    inbox.put(order.arrive, keys.seq, keys.uri, keys)
    return Keystrokes()


class Undecodable:
    """A body that is not JSON: logged on the loop, in its turn."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def _decode(body: bytes | bytearray) -> Any:
    try:
        return json_pieces.loads(body)
    except Exception as exc:
        return Undecodable(exc)


def frames(stdin: Any, stop: threading.Event) -> Iterator[bytes | bytearray]:
    """Message bodies as pygls frames them: header lines up to an empty one, the first
    `Content-Length` header giving the body's size; a header block without one is skipped."""
    content_length = 0
    while not stop.is_set():
        header = stdin.readline()
        if not header:
            return
        if not content_length:
            match = CONTENT_LENGTH.fullmatch(header)
            if match:
                content_length = int(match.group(1))
        if content_length and not header.strip():
            body = stdin.read(content_length)
            if not body:
                return
            content_length = 0
            yield body


def structured(hook: Callable[[dict[str, Any]], Any], value: Any) -> Any:
    """`value` with `hook` applied to every object, innermost first: what
    `json.loads(..., object_hook=hook)` returns."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                value[key] = structured(hook, item)
        return hook(value)
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, (dict, list)):
                value[i] = structured(hook, item)
    return value


class ThreadedWriter:
    """The protocol's writer. Order is kept: while anything is queued or being written by
    the thread, every message queues behind it."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.lock = threading.Condition()
        self.queue: deque[Sequence[bytes | str]] = deque()
        self.busy = False  # the thread is writing a message
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="citelens-write", daemon=True)
        self.thread.start()

    def write(self, data: bytes) -> None:
        self.write_parts((data,))

    def write_parts(self, parts: Sequence[bytes | str]) -> None:
        """Write one message made of `parts` (text parts are ASCII: see `Json`)."""
        with self.lock:
            if self.closed:
                return
            if not self.busy and not self.queue and sum(map(len, parts)) < BIG_WRITE:
                self._write(parts)  # nothing ahead of it: at once, as pygls writes
                return
            self.queue.append(parts)
            self.lock.notify()

    def _write(self, parts: Sequence[bytes | str]) -> None:
        for part in parts:
            if isinstance(part, bytes):
                self.out.write(part)
            else:
                for i in range(0, len(part), WRITE_SLICE):
                    self.out.write(part[i : i + WRITE_SLICE].encode("utf-8"))
        self.out.flush()

    def _run(self) -> None:
        while True:
            with self.lock:
                while not self.queue and not self.closed:
                    self.lock.wait()
                if not self.queue:
                    return
                parts = self.queue.popleft()
                self.busy = True
            try:
                self._write(parts)
            except (OSError, ValueError) as exc:  # the client is gone
                log.debug("writing stopped: %s", exc)
                with self.lock:
                    self.queue.clear()
                    self.closed = True
            finally:
                with self.lock:
                    self.busy = False
                    self.lock.notify_all()

    def close(self) -> None:
        """Write what is queued (for a while at most), then close the stream."""
        with self.lock:
            self.closed = True
            self.lock.notify_all()
            self.lock.wait_for(lambda: not self.queue and not self.busy, CLOSE_WAIT)
        with contextlib.suppress(OSError):
            self.out.close()
