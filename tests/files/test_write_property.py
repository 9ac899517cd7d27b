"""The write path under random files, links, modes, faults and interruptions.

Whatever happens, the user's file holds either exactly its old bytes or exactly the new
ones (never a mix, never nothing), keeps its mode, owner and link structure, no temporary
file is left behind, and every error is one line naming the path the user gave.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citelens.files.write as write_module
from citelens.files import FileError, write_file
from tests.helpers.unprivileged import NOBODY

#: the os calls of the write path a fault can hit, as (name, when: "before"/"after" it ran)
FAULT_POINTS = ("open", "write", "fchown", "fchmod", "fsync", "close", "replace")
LAYOUTS = ("plain", "relative link", "absolute link", "chain of links", "link to another folder", "new file")


class Interrupted(BaseException):
    """Stands for Ctrl-C or a signal arriving at that point."""


@dataclass(frozen=True)
class Fault:
    call: str
    kind: str  # "interrupt", "disk full", "permission"
    nth: int  # which call of that name fails (1 = the first)


class _FaultyOs:
    """The os module, except that the chosen call fails the chosen time."""

    def __init__(self, fault: Fault) -> None:
        self._fault, self._seen = fault, 0

    def __getattr__(self, name: str):
        real = getattr(os, name)
        if name != self._fault.call:
            return real

        def failing(*args, **kwargs):
            self._seen += 1
            if self._seen == self._fault.nth:
                if self._fault.kind == "interrupt":
                    raise Interrupted
                code = errno.ENOSPC if self._fault.kind == "disk full" else errno.EACCES
                # the OS names the file it was working on: the temporary one
                raise OSError(code, os.strerror(code), str(args[0]) if args else "?")
            return real(*args, **kwargs)

        return failing


faults = st.one_of(
    st.none(),
    st.builds(
        Fault,
        st.sampled_from(FAULT_POINTS),
        st.sampled_from(("interrupt", "disk full", "permission")),
        st.integers(1, 2),
    ),
)


def _listing(root: Path) -> dict[str, tuple]:
    """Every entry under root: links with their text, files with bytes, mode and owner."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_file():
            st_ = path.stat()
            out[rel] = ("file", path.read_bytes(), stat.S_IMODE(st_.st_mode), st_.st_uid, st_.st_gid)
        else:
            out[rel] = ("dir",)
    return out


def _arrange(root: Path, layout: str, old: bytes, mode: int, owner: int | None) -> tuple[str, str]:
    """Files for one layout; returns (the path the user names, the file holding the bytes)."""
    (root / "a").mkdir()
    (root / "b").mkdir()
    real = root / "a" / "run.jsonl"
    if layout != "new file":
        real.write_bytes(old)
        if owner is not None:
            os.chown(real, owner, owner)
        real.chmod(mode)
    user = {
        "plain": "a/run.jsonl",
        "relative link": "a/link.jsonl",
        "absolute link": "b/abs.jsonl",
        "chain of links": "b/second.jsonl",
        "link to another folder": "b/across.jsonl",
        "new file": "a/run.jsonl",
    }[layout]
    if layout == "relative link":
        (root / "a" / "link.jsonl").symlink_to("run.jsonl")
    elif layout == "absolute link":
        (root / "b" / "abs.jsonl").symlink_to(real)
    elif layout == "chain of links":
        (root / "a" / "first.jsonl").symlink_to("run.jsonl")
        (root / "b" / "second.jsonl").symlink_to("../a/first.jsonl")
    elif layout == "link to another folder":
        (root / "b" / "across.jsonl").symlink_to("../a/run.jsonl")
    return str(root / user), "a/run.jsonl"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    old=st.binary(max_size=3000),
    new=st.binary(max_size=3000),
    mode=st.sampled_from((0o644, 0o600, 0o640, 0o664, 0o755, 0o700, 0o444, 0o400, 0o555)),
    foreign_owner=st.booleans(),
    layout=st.sampled_from(LAYOUTS),
    fault=faults,
    umask=st.sampled_from((0o022, 0o077, 0o002)),
)
def test_no_byte_is_lost_and_every_error_names_the_users_path(
    old, new, mode, foreign_owner, layout, fault, umask
):
    owner = NOBODY if foreign_owner and os.geteuid() == 0 else None
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        user_path, holder = _arrange(root, layout, old, mode, owner)
        before = _listing(root)
        saved_umask = os.umask(umask)
        outcome: BaseException | None = None
        try:
            if fault is not None:
                write_module.os = _FaultyOs(fault)  # type: ignore[assignment]
            write_file(user_path, new)
        except (FileError, Interrupted) as exc:
            outcome = exc
        finally:
            write_module.os = os
            os.umask(saved_umask)
        after = _listing(root)

        # nothing but the one file may change, and no temporary file may stay
        assert set(after) - {holder} == set(before) - {holder}, "a stray or missing file"
        for name, entry in before.items():
            if name != holder:
                assert after[name] == entry, f"{name} changed"

        if outcome is None:
            kind, data, now_mode, uid, gid = after[holder]
            assert data == new
            if layout == "new file":
                assert now_mode == 0o666 & ~umask
            else:
                assert mode & 0o222, "a read-only file was rewritten"
                assert after[holder][2:] == before[holder][2:], "mode or owner changed"
            return

        # failed or interrupted: the old bytes are all there, or (interrupted after the
        # rename) the new ones are; nothing in between
        if layout == "new file":
            assert holder not in after or after[holder][1] == new
            assert holder not in after or isinstance(outcome, Interrupted)
        else:
            assert after[holder][1] in (old, new)
            if isinstance(outcome, FileError):  # an error says "not changed": it must not be
                assert after[holder][1] == old
            assert after[holder][2:] == before[holder][2:]
        if isinstance(outcome, FileError):
            message = str(outcome)
            assert message.startswith(f"{user_path}: ") and "\n" not in message
            assert ".tmp" not in message and ".run.jsonl." not in message, message
