"""The server's output pipe widened to 1 MB (Linux).

A 10,000-report run's diagnostics are 16 MB per edit; through a default 64 KB pipe the
writer and the editor's reader take turns 250 times per publish, a few milliseconds of
every keystroke. The kernel lets any process widen its pipe up to `pipe-max-size`
(1 MB by default); where it cannot (not a pipe, another system), nothing changes.
"""

from __future__ import annotations

import os
import stat

WANTED = 1 << 20


def widen(fd: int, wanted: int = WANTED) -> int:
    """Ask for a pipe buffer of `wanted` bytes on `fd`: its size afterwards (0: not a pipe
    or not possible here)."""
    try:
        import fcntl

        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return 0
        setter = getattr(fcntl, "F_SETPIPE_SZ", None)
        if setter is None:
            return 0
        try:
            with open("/proc/sys/fs/pipe-max-size", encoding="ascii") as f:
                wanted = min(wanted, int(f.read()))
        except (OSError, ValueError):
            pass
        return int(fcntl.fcntl(fd, setter, wanted))
    except (ImportError, OSError, ValueError):
        return 0
