"""Reading the client's stdin from its file descriptor (light: the early `initialize`
answer reads through it before the server loads)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Protocol


class Reader(Protocol):
    """What the framing reads with: an `FdReader`, or a test's buffered stream."""

    def readline(self) -> bytes: ...

    def read(self, n: int, /) -> bytes | bytearray: ...


#: bytes read from the client at a time
READ_CHUNK = 1 << 16
#: a message's header is in its first this many bytes (a `Content-Length` and a type)
HEADER_BYTES = 512
#: bodies from which the buffer they are read into is not zeroed first (see `_new_buffer`)
UNZEROED = 1 << 20


@functools.cache  # loaded at the first big body
def _unzeroed_maker() -> Callable[[int], bytearray] | None:
    """CPython's `PyByteArray_FromStringAndSize(NULL, n)`: a bytearray of `n` bytes whose
    memory is not written. `bytearray(n)` zeroes it in one C call holding the interpreter:
    on a machine where fresh memory is dear (a virtual machine that gives free pages back
    to its host, 3-14 us a page) a 51 MB body's buffer held it 36-41 ms at the machine's
    fast phase, while every byte is written by the read anyway, where the pages' faults
    are the kernel's, without it."""
    if sys.implementation.name != "cpython":
        return None
    try:
        import ctypes

        make = ctypes.pythonapi.PyByteArray_FromStringAndSize
    except (ImportError, AttributeError):
        return None
    make.argtypes, make.restype = [ctypes.c_void_p, ctypes.c_ssize_t], ctypes.py_object
    return lambda n: make(None, n)


def _new_buffer(n: int) -> bytearray:
    """A bytearray of `n` bytes to read into (not zeroed from `UNZEROED` bytes: the
    caller writes or cuts every byte)."""
    make = _unzeroed_maker() if n >= UNZEROED else None
    return make(n) if make is not None else bytearray(n)


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
        body = _new_buffer(n)  # every byte is read into or cut below
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
