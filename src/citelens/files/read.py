"""Reading a run, topics or spec file: its bytes, or one plain line saying why not."""

from __future__ import annotations

import os
import stat
import sys

from citelens.files.error import FileError
from citelens.files.kind import kind_of, stat_of

STDIN = "-"


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes. `-` is standard input; a named pipe is read like a file (as
    from `<(command)`); a directory, a device or a socket is refused with its kind."""
    shown = os.fspath(path)
    if shown == STDIN:
        return sys.stdin.buffer.read()
    st = stat_of(shown)
    if st is None:
        raise FileError(shown, "no such file or directory")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        raise FileError(shown, f"not a file but {kind_of(st.st_mode)}")
    try:
        with open(shown, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise FileError.of(shown, exc, "cannot read it") from None
