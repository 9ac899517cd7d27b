"""`ConfigError`: a settings problem, located in its file when it came from one."""

from __future__ import annotations

from pathlib import Path


class ConfigError(ValueError):
    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        self.path = Path(path) if path is not None else None
        self.line, self.reason = line, message
        where = f"{path}:{line}: " if path is not None and line else (f"{path}: " if path is not None else "")
        super().__init__(where + message)
