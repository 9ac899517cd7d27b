"""The C allocator set for a server that copies a big text on every keystroke.

Each edit of an open run builds its new text (13 MB for a 10,000-report run) and drops
the old one. glibc serves a block that size with a fresh `mmap` and gives a freed one
back to the system at once (its thresholds start at 128 KB and only the first adapts),
so every copy touched new pages: about 3,300 page faults per copy, a fifth of an edit's
time. With the mmap threshold at the most glibc allows (32 MB on 64-bit systems) and
memory given back only from 128 MB free at the top of the heap, the next text is built
in the pages the last one freed. Done when a big document is opened (`tune`), so a
server that only sees small files keeps the defaults; elsewhere than glibc, nothing.
"""

from __future__ import annotations

import logging
import sys

log = logging.getLogger("citelens_server")

#: mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: blocks up to this size come from the heap (glibc's maximum: HEAP_MAX_SIZE / 2)
MMAP_THRESHOLD = 32 << 20
#: free memory at the top of the heap kept for the next text, up to this much
TRIM_THRESHOLD = 128 << 20


def tune() -> bool:
    """Set the thresholds above (True when the allocator took them)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    done = bool(
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    )
    if not done:
        log.debug("allocator thresholds not set")
    return done
