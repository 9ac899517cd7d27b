"""Running a piece of a test as an ordinary user, so that folder permissions bite even
when the suite runs as root (as CI does)."""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

NOBODY = 65534


def unprivileged(fn: Callable[[], object]) -> object:
    """`fn()` as user nobody in a forked child when we are root (else here); its result or
    its exception comes back pickled."""
    if os.geteuid() != 0:
        return fn()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            outcome: tuple[str, object] = ("ok", fn())
        except BaseException as exc:
            outcome = ("raised", exc)
        with os.fdopen(write, "wb") as fh:
            pickle.dump(outcome, fh)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        kind, value = pickle.load(fh)
    os.waitpid(pid, 0)
    if kind == "raised":
        raise value  # type: ignore[misc]
    return value


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A folder an ordinary user can reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="citelens-files-"))
    path.chmod(0o755)
    yield path
    for sub in path.rglob("*"):
        if sub.is_dir() and not sub.is_symlink():
            sub.chmod(0o755)
    shutil.rmtree(path)


def give_to_unprivileged(path: Path) -> None:
    """Make `path` belong to the user `unprivileged` runs as."""
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
