"""`LocatedError`: a problem in a user's file, at a line when known.

The base of the settings and spec errors (`ConfigError`, `SpecError`), so that a front end
shows them, and a server places them, the same way: `str()` is `PATH:LINE: reason`.
"""

from __future__ import annotations

from pathlib import Path


class LocatedError(ValueError):
    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        self.path, self.line, self.reason = path, line, message
        where = f"{path}:{line}: " if path is not None and line else (f"{path}: " if path is not None else "")
        super().__init__(where + message)
