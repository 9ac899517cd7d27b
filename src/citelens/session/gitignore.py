"""The `.gitignore` files that apply to a path: every one from the repository's top folder
(or, outside a repository, from the folder being searched) down to the path's folder, a
deeper file's patterns winning, as git reads them."""

from __future__ import annotations

from pathlib import Path

from citelens.config.globs import PathGlobs


class GitIgnores:
    """`.gitignore` files under (and, inside a repository, above) `top`, read once each."""

    def __init__(self, top: Path):
        top = top.absolute()
        self.top = top
        for folder in (top, *top.parents):
            if (folder / ".git").exists():
                self.top = folder
                break
        self._read: dict[Path, PathGlobs | None] = {}

    def _globs(self, folder: Path) -> PathGlobs | None:
        if folder not in self._read:
            try:
                text = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
            except OSError:
                self._read[folder] = None
            else:
                self._read[folder] = PathGlobs(text.splitlines(), folder) or None
        return self._read[folder]

    def pattern_for(self, path: Path, *, is_dir: bool = False) -> tuple[Path, str] | None:
        """(the `.gitignore` file, its pattern) that ignores `path`; None if none does."""
        path = path.absolute()
        if not path.is_relative_to(self.top):
            return None
        folders = [f for f in path.parents if f.is_relative_to(self.top)]
        for folder in folders:  # nearest first: a deeper file decides
            globs = self._globs(folder)
            if globs is not None and (pattern := globs.pattern_for(path, is_dir=is_dir)) is not None:
                return folder / ".gitignore", pattern
        return None
