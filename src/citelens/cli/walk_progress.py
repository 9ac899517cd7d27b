"""The progress line of a corpus folder walk, on a terminal.

`--docs DIR` and `citelens index DIR` first look for the corpus files under DIR; in a big
folder that takes a moment, bounded by the walk limits (`corpus.reading.WALK_LIMITS`).
A walk that lasts longer than `SHOW_AFTER_S` shows one self-overwriting line on stderr
(folders read, entries seen against the limit, files found), cleared when the walk ends.
Nothing is shown when stderr is not a terminal or with `--quiet`, and a quick walk of a
small folder shows nothing at all.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TextIO

from citelens.corpus.reading import WalkProgress, observe_walks

#: a walk is shown once it has taken this long (a small folder's walk never is)
SHOW_AFTER_S = 0.3
#: the line is redrawn at most this often
REDRAW_S = 0.1
WIDTH = 100


class WalkLine:
    """One walk at a time on one line; walks from several threads take turns."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._lock = threading.Lock()
        self._started: dict[str, float] = {}  # walk root -> when it started
        self._drawn = 0.0
        self.shown = False

    def __call__(self, progress: WalkProgress) -> None:
        root = str(progress.root)
        now = time.monotonic()
        with self._lock:
            started = self._started.setdefault(root, now)
            if progress.done:
                del self._started[root]
                self._clear()
                return
            if now - started < SHOW_AFTER_S or now - self._drawn < REDRAW_S:
                return
            self._drawn = now
            line = (
                f"looking for corpus files: {progress.folders:,} folders, {progress.entries:,} of at "
                f"most {progress.limit:,} entries, {progress.files:,} files found, in {root}"
            )
            self.stream.write("\r" + line[: WIDTH + 50].ljust(WIDTH))
            self.stream.flush()
            self.shown = True

    def _clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * WIDTH + "\r")
            self.stream.flush()
            self.shown = False


@contextmanager
def _shown_on(stream: TextIO) -> Iterator[None]:
    line = WalkLine(stream)
    with observe_walks(line):
        try:
            yield
        finally:
            with line._lock:
                line._clear()


def walk_progress(quiet: bool = False, stream: TextIO | None = None) -> AbstractContextManager[None]:
    """While the block runs, walks show their progress on `stream` (stderr) if it is a
    terminal and not `quiet`."""
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    if quiet or not (isatty and isatty()):
        return nullcontext()
    return _shown_on(stream)
