"""Writing a user's file so that no byte of it is ever lost.

A regular file is replaced atomically: the new bytes go to a temporary file beside the
file (beside a symbolic link's target, not the link), which takes the old file's mode,
owner and group and is then renamed over it. Interrupted at any point, the file holds
either all of its old bytes or all of its new ones. A new file is created the same way
with the mode the umask gives. A named pipe, a device or `/dev/stdout` is streamed to,
never replaced. A read-only file, a file with other hard links, a directory and a missing
folder are refused before anything is written. Every error is a `FileError` naming the
path the user gave, never the temporary file.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator

from citelens.files.error import FileError, reason_of
from citelens.files.kind import kind_of, stat_of
from citelens.files.snapshot import Snapshot

_MAX_LINKS = 40  # the kernel's own limit on symbolic links followed in one lookup
#: where /dev/stdout and /dev/fd/N lead: an open stream, never a file to replace
_OPEN_FD = re.compile(r"/proc/(?P<pid>self|\d+)/fd/(?P<fd>\d+)\Z")
#: a temporary file of ours: `.NAME.citelens-PID-HEX.tmp` (and the older `.NAME.HEX.tmp`)
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?:citelens-(?P<pid>\d+)-)?[0-9a-f]{8}\.tmp\Z")
#: an old-style temporary file (no process id in its name) is stale after this long
_STALE_AFTER = 3600.0

#: a test hook: called with the target path after the new bytes are written and before
#: the file is compared with its snapshot and replaced (tests change the file here)
before_replace: Callable[[str], None] | None = None


def write_file(path: str | os.PathLike[str], data: bytes, *, unchanged_since: Snapshot | None = None) -> None:
    """Put `data` in the file at `path` (see the module docstring for how). With
    `unchanged_since`, an existing file is replaced only if it is still as that snapshot
    saw it; else nothing is written and the `FileError` says what changed."""
    shown = os.fspath(path)
    st = stat_of(shown, missing_link_ok=True)
    target, stream = _final_target(shown)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileError(shown, "is a directory")
    if st is not None and (stream is not None or not stat.S_ISREG(st.st_mode)):
        _stream(shown, data, stream)
    elif st is None:
        _create(shown, target, data)
    else:
        _replace(shown, target, data, st, unchanged_since)


def _final_target(shown: str) -> tuple[str, int | None]:
    """The file a chain of symbolic links at `shown` ends at (maybe not existing yet), and
    the descriptor when the chain passes through /proc/self/fd/N (as `/dev/stdout` and
    `/dev/fd/N` do): a stream this process holds open, -1 for another process's."""
    current, stream = os.path.abspath(shown), None
    for _ in range(_MAX_LINKS):
        head, tail = os.path.split(current)
        head = os.path.realpath(head)
        current = os.path.join(head, tail)
        own = _OPEN_FD.match(current)
        if own:
            stream = int(own["fd"]) if own["pid"] in ("self", str(os.getpid())) else -1
        if not os.path.islink(current):
            return current, stream
        current = os.path.join(head, os.readlink(current))
    raise FileError(shown, "a symbolic link loop (the link leads back to itself)")


def _stream(shown: str, data: bytes, own_fd: int | None) -> None:
    """Write into a stream (a pipe, a terminal, a device, `/dev/stdout`) without replacing
    it: through the descriptor this process already holds (as a shell does for
    `/dev/stdout`), else opened for appending, so what the stream already got stays."""
    if own_fd is not None and own_fd >= 0:
        for python_stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                if python_stream.fileno() == own_fd:
                    python_stream.flush()
        fd, close = own_fd, False
    else:
        try:
            fd, close = os.open(shown, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY), True
        except OSError as exc:
            raise FileError.of(shown, exc, "cannot open it for writing") from None
    try:
        _write_all(fd, data)
    except OSError as exc:
        raise FileError.of(shown, exc, "cannot write to it") from None
    finally:
        if close:
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _replace(
    shown: str, target: str, data: bytes, st: os.stat_result, unchanged_since: Snapshot | None
) -> None:
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise FileError(shown, "the file is read-only; it was not changed")
    if st.st_nlink > 1:
        raise FileError(
            shown,
            f"the file has {st.st_nlink} hard links, which replacing it would split; it was not changed",
        )

    def keep_metadata(fd: int) -> None:
        now = os.fstat(fd)
        if (now.st_uid, now.st_gid) != (st.st_uid, st.st_gid):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except PermissionError:
                raise FileError(
                    shown, "its owner or group cannot be kept by this user; it was not changed"
                ) from None
        os.fchmod(fd, stat.S_IMODE(st.st_mode))  # after chown, which may clear set-id bits

    _write_then_rename(shown, target, data, keep_metadata, unchanged_since)


def _create(shown: str, target: str, data: bytes) -> None:
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        kind = "does not exist" if not os.path.exists(folder) else f"is {kind_of(os.stat(folder).st_mode)}"
        raise FileError(shown, f"cannot create it: its folder {folder} {kind}")
    _write_then_rename(shown, target, data, None)  # the temporary file's mode came from the umask


def _write_then_rename(
    shown: str,
    target: str,
    data: bytes,
    keep_metadata: Callable[[int], None] | None,
    unchanged_since: Snapshot | None = None,
) -> None:
    folder, name = os.path.split(target)
    _remove_stale(folder, name)
    tmp, fd = _temporary(shown, folder, name)
    try:
        with _terminate_as_exit():
            try:
                _write_all(fd, data)
                if keep_metadata is not None:
                    keep_metadata(fd)
                os.fsync(fd)
            finally:
                os.close(fd)
            if before_replace is not None:
                before_replace(target)
            if unchanged_since is not None and (changed := unchanged_since.difference(target)):
                raise FileError(
                    shown,
                    f"the file changed while citelens worked on it ({changed}); it was not "
                    "written, so nothing of that change is lost: run the command again",
                )
            os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, FileError):
            raise FileError.of(shown, exc, "cannot write it; it was not changed") from None
        raise
    _sync_folder(folder)


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """While the temporary file exists, SIGTERM (a CI timeout, `kill`) ends the program
    through an exception, so the temporary file is removed; Ctrl-C already does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except (ValueError, OSError):  # not settable here (an embedding host): as before
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _remove_stale(folder: str, name: str) -> None:
    """Temporary files of this target left by a run that was killed (SIGKILL, power loss):
    those of a process that is gone, and old-style ones older than an hour."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            found = _TEMPORARY.match(entry.name)
            if found is None or found["name"] != name or not entry.is_file(follow_symlinks=False):
                continue
            pid = found["pid"]
            if pid is not None and int(pid) != os.getpid() and not _alive(int(pid)):
                stale = True
            else:
                stale = (
                    pid is None and time.time() - entry.stat(follow_symlinks=False).st_mtime > _STALE_AFTER
                )
            if stale:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def _temporary(shown: str, folder: str, name: str) -> tuple[str, int]:
    """A new file beside the target, created with mode 0666 so the kernel applies the
    umask (and any default ACL) exactly as for the file itself."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.citelens-{os.getpid()}-{secrets.token_hex(4)}.tmp")
        try:
            return tmp, os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise FileError(
                shown, f"cannot write in its folder {folder}: {reason_of(exc)}; it was not changed"
            ) from None
    raise FileError(shown, f"cannot create a temporary file in {folder}; it was not changed")


def _sync_folder(folder: str) -> None:
    """Make the rename durable (best effort: the file is already complete and in place,
    and some file systems cannot open or sync a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
