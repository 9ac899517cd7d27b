"""`ConfigError`: a settings problem, located in its file when it came from one."""

from __future__ import annotations

from pathlib import Path

from citelens.source.located_error import LocatedError


class ConfigError(LocatedError):
    path: Path | None

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        super().__init__(message, Path(path) if path is not None else None, line)
