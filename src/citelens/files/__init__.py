"""Reading and writing the user's files: nothing lost, every error naming the user's path.

`read_bytes` and `write_file` load on first use: a light module of this package (the
user cache's location) must not load the writer and its snapshots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export
from citelens.files.error import FileError

if TYPE_CHECKING:
    from citelens.files.read import read_bytes
    from citelens.files.write import write_file

_EXPORTS = {"read_bytes": "citelens.files.read", "write_file": "citelens.files.write"}

__all__ = ["FileError", "read_bytes", "write_file"]


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _EXPORTS, name)
