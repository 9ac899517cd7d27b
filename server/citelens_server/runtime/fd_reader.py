"""Reading the client's stdin from its file descriptor (light: the early `initialize`
answer reads through it before the server loads)."""

from __future__ import annotations

import os
from typing import Protocol


class Reader(Protocol):
    """What the framing reads with: an `FdReader`, or a test's buffered stream."""

    def readline(self) -> bytes: ...

    def read(self, n: int, /) -> bytes | bytearray: ...


#: bytes read from the client at a time
READ_CHUNK = 1 << 16
#: a message's header is in its first this many bytes (a `Content-Length` and a type)
HEADER_BYTES = 512


def header_at_start(data: bytes | bytearray) -> bool:
    """Whether `data` starts with a whole message header (its blank line in the first
    `HEADER_BYTES`)."""
    return data.find(b"\r\n\r\n", 0, HEADER_BYTES) >= 0


class FdReader:
    """`readline` and `read` over a file descriptor with its own buffer: a thread blocked
    in `os.read` does not hold the lock a buffered stream takes, which would abort the
    interpreter's exit while the reader waits for the client."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()

    def _fill(self) -> bool:
        chunk = os.read(self.fd, READ_CHUNK)
        self.buffer += chunk
        return bool(chunk)

    def has_header(self) -> bool:
        """Whether the next message's header is already read (reading it will not wait)."""
        return header_at_start(self.buffer)

    def readline(self) -> bytes:
        start = 0
        while (end := self.buffer.find(b"\n", start)) < 0:
            start = len(self.buffer)
            if not self._fill():
                break
        cut = len(self.buffer) if end < 0 else end + 1
        line = bytes(self.buffer[:cut])
        del self.buffer[:cut]
        return line

    def read(self, n: int) -> bytes | bytearray:
        """`n` bytes (fewer at the end of the stream), a big body read straight into its
        buffer."""
        if len(self.buffer) >= n:
            data = bytes(self.buffer[:n])
            del self.buffer[:n]
            return data
        body = bytearray(n)
        have = len(self.buffer)
        body[:have] = self.buffer
        self.buffer.clear()
        view = memoryview(body)
        while have < n:
            got = os.readv(self.fd, [view[have:]])
            if not got:
                break
            have += got
        view.release()
        if have < n:
            del body[have:]
        return body
