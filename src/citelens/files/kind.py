"""What a path is, in words: the cause a user needs when it is not a file we can use."""

from __future__ import annotations

import errno
import os
import stat

from citelens.files.error import FileError

#: stat's file-type test -> what to call such a thing
KINDS: tuple[tuple[object, str], ...] = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISFIFO, "a named pipe"),
)


def kind_of(mode: int) -> str:
    for test, name in KINDS:
        if test(mode):  # type: ignore[operator]
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def stat_of(path: str, *, missing_link_ok: bool = False) -> os.stat_result | None:
    """`os.stat` (following links); None when nothing is there. A link loop, an
    unsearchable folder and (unless `missing_link_ok`, as for a file about to be
    written) a link to nothing are a `FileError` naming `path` and the real cause."""
    if path == "":
        raise FileError("''", "an empty path (no file named)")
    try:
        return os.stat(path)
    except FileNotFoundError:
        if not missing_link_ok and os.path.islink(path):
            raise FileError(path, f"a symbolic link to {os.readlink(path)}, which does not exist") from None
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileError(path, "a symbolic link loop (the link leads back to itself)") from None
        raise FileError.of(path, exc) from None
