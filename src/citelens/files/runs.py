"""The run files a command line names: files, directories of files, `-` for standard
input; each named once, and each problem with a path a `FileError` of its own, so one
unreadable entry never hides the others."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from citelens.files.error import FileError
from citelens.files.kind import stat_of
from citelens.files.read import STDIN


@dataclass
class RunFiles:
    """The files to check, in order, and the paths that could not be used."""

    paths: list[str] = field(default_factory=list)
    problems: list[FileError] = field(default_factory=list)


def run_files(named: list[str]) -> RunFiles:
    """Expand the named paths: a directory gives its visible entries (sorted, not its
    sub-directories); a file named twice, directly or through a link or a directory,
    is kept once, under the name it was first given."""
    out = RunFiles()
    seen: set[tuple[int, int] | str] = set()

    def add(path: str, st: os.stat_result | None) -> None:
        key: tuple[int, int] | str = (st.st_dev, st.st_ino) if st is not None else path
        if key not in seen:
            seen.add(key)
            out.paths.append(path)

    for item in named:
        if item == STDIN:
            add(STDIN, None)
            continue
        try:
            st = stat_of(item)
        except FileError as exc:
            out.problems.append(exc)
            continue
        if st is None:
            out.problems.append(FileError(item, "no such file or directory"))
        elif stat.S_ISDIR(st.st_mode):
            _add_directory(item, out, add)
        else:
            add(item, st)  # reading it says what is wrong with a device or a socket
    return out


def _add_directory(folder: str, out: RunFiles, add: Callable[[str, os.stat_result | None], None]) -> None:
    try:
        names = sorted(e.name for e in os.scandir(folder) if not e.name.startswith("."))
    except OSError as exc:
        out.problems.append(FileError.of(folder, exc, "cannot list the directory"))
        return
    found = 0
    for name in names:
        path = os.path.join(folder, name)
        try:
            st = stat_of(path)
        except FileError as exc:
            out.problems.append(exc)
            found += 1
            continue
        if st is None or stat.S_ISDIR(st.st_mode):
            continue  # sub-directories are not searched
        found += 1
        add(path, st)
    if not found:
        out.problems.append(FileError(folder, "the directory holds no files"))
