"""How large a file may be when it is read without the user naming it: the language
server checks every run file of a workspace from disk (workspace diagnostics), and a
stray 5 GB `.jsonl` must not fill its memory. A file the user opens or names is read
whatever its size."""

from __future__ import annotations

import os

from citelens.files.error import FileError

#: the default, in MB; `CITELENS_MAX_FILE_MB=N` changes it
DEFAULT_MAX_FILE_MB = 256


def max_file_bytes() -> int:
    raw = os.environ.get("CITELENS_MAX_FILE_MB", "")
    mb = int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_FILE_MB
    return mb * 1024 * 1024


def check_size(path: str | os.PathLike[str], limit: int | None = None) -> None:
    """Raise `FileError` when the file at `path` is larger than `limit` (default: the
    configured limit); a file that cannot be stat'ed is left to the reader to report."""
    limit = max_file_bytes() if limit is None else limit
    try:
        size = os.stat(path).st_size
    except OSError:
        return
    if size > limit:
        raise FileError(
            path,
            f"not read: it is {size / 1024 / 1024:,.0f} MB, over the {limit / 1024 / 1024:,.0f} MB "
            "read from disk for workspace checks (open it to check it, or raise CITELENS_MAX_FILE_MB)",
        )
