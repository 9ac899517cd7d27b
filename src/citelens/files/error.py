"""`FileError`: one plain line about a user's file, naming the path the user gave."""

from __future__ import annotations

import errno
import os

#: errno -> the cause in plain words (the rest fall back to the system's text)
REASONS: dict[int, str] = {
    errno.ENOENT: "no such file or directory",
    errno.ELOOP: "a symbolic link loop (the link leads back to itself)",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ETXTBSY: "the file is busy",
    errno.EIO: "an input/output error",
}


def reason_of(exc: OSError) -> str:
    """The cause of an OS error in words, without the path the OS attached (which may be
    an internal temporary file)."""
    if exc.errno in REASONS:
        return REASONS[exc.errno]
    text = exc.strerror or (str(exc.args[0]) if exc.args else type(exc).__name__)
    return text[:1].lower() + text[1:]


class FileError(OSError):
    """A user's file cannot be read or written. `str()` is `PATH: reason`, where PATH is
    the path as the user wrote it; an OS error's own file name is never shown."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path, self.reason = os.fspath(path), reason
        super().__init__(f"{self.path}: {reason}")

    @classmethod
    def of(cls, path: str | os.PathLike[str], exc: OSError, doing: str = "") -> FileError:
        """From an OS error met while `doing` something to the user's `path`."""
        if isinstance(exc, FileError):
            return exc
        reason = reason_of(exc)
        return cls(path, f"{doing}: {reason}" if doing else reason)

    def __reduce__(self) -> tuple[type[FileError], tuple[str, str]]:  # survives a process hop
        return (type(self), (self.path, self.reason))

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"
