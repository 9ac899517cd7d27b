"""What a file was when it was read, so a write can tell that it changed meanwhile.

`--fix` and `convert --in-place` compute new bytes from the bytes they read; if someone
appended a line in between (an editor, a still-running job), renaming the new file over
it would silently drop that line. The writer compares the file's identity (device, inode),
size, modification time and content hash with this snapshot just before the rename, and
refuses when any differs.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Snapshot:
    """A file as read: its identity and stamp, and the SHA-256 of the bytes read."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: str | os.PathLike[str], data: bytes) -> Snapshot:
        """The file at `path`, whose content was read as `data`."""
        st = os.stat(path)
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, hashlib.sha256(data).hexdigest())

    def difference(self, path: str | os.PathLike[str]) -> str | None:
        """How the file differs now from this snapshot (None: it is the same)."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return "it was deleted"
        if (st.st_dev, st.st_ino) != (self.dev, self.ino):
            return "it was replaced by another file"
        if st.st_size != self.size:
            return f"its size changed ({self.size:,} -> {st.st_size:,} bytes)"
        if st.st_mtime_ns != self.mtime_ns:
            return "it was modified"
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
        if digest.hexdigest() != self.sha256:
            return "its content changed"
        return None
