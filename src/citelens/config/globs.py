"""Gitignore-style path patterns, for `exclude`, `extend-exclude`, `[[overrides]] files`
and `.gitignore` files: one matcher, so a pattern means the same thing everywhere.

A pattern holding a `/` (other than a trailing one) is anchored to the folder of the file
that wrote it; one without matches a name at any depth. A trailing `/` matches folders
only; `**` spans folders; `!` takes a path back in. A path is matched when it or any
folder above it is (as git does: everything under an ignored folder is ignored).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class Pattern:
    text: str  # as written (for messages)
    regex: re.Pattern[str]
    negated: bool
    folders_only: bool


def _translate(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if body.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and (close := body.find("]", i + 1)) > i + 1:
            inner = body[i + 1 : close]
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            out.append(f"[{inner.replace(chr(92), chr(92) * 2)}]")
            i = close + 1
            continue
        elif c == "\\" and i + 1 < len(body):
            out.append(re.escape(body[i + 1]))
            i += 2
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_pattern(text: str) -> Pattern | None:
    """One gitignore line as a `Pattern` (None for a blank line or a comment)."""
    line = text.rstrip("\n\r")
    if not line.strip() or line.startswith("#"):
        return None
    line = line.rstrip(" ") if not line.endswith("\\ ") else line
    negated = line.startswith("!")
    body = line[1:] if negated else line
    if body.startswith("\\"):
        body = body[1:]  # \! and \# stand for themselves
    folders_only = body.endswith("/")
    body = body.rstrip("/")
    if body.startswith("./"):
        body = body[2:]
    anchored = "/" in body
    body = body.lstrip("/")
    if not body:
        return None
    prefix = "" if anchored else "(?:.*/)?"
    return Pattern(text, re.compile(f"{prefix}{_translate(body)}"), negated, folders_only)


class PathGlobs:
    """Patterns relative to `base`, in order (the last matching one decides)."""

    def __init__(self, patterns: list[str] | tuple[str, ...], base: Path):
        self.base = base
        self.patterns = [p for p in (compile_pattern(t) for t in patterns) if p is not None]

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def pattern_for(self, path: Path, *, is_dir: bool = False) -> str | None:
        """The pattern that matches `path` (or a folder above it, up to `base`); None when
        none does, or the path is outside `base`."""
        try:
            relative = PurePosixPath(path.relative_to(self.base).as_posix())
        except ValueError:
            return None
        parts = relative.parts
        for n in range(1, len(parts) + 1):
            folder = n < len(parts) or is_dir
            text = "/".join(parts[:n])
            for pattern in reversed(self.patterns):
                if (pattern.folders_only and not folder) or not pattern.regex.fullmatch(text):
                    continue
                if pattern.negated:
                    break
                return pattern.text
        return None

    def matches(self, path: Path, *, is_dir: bool = False) -> bool:
        return self.pattern_for(path, is_dir=is_dir) is not None
