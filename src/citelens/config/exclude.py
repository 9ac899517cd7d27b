"""Which files of a project are never runs: `exclude` (replacing the defaults),
`extend-exclude` (added to them) and `respect-gitignore`, as ruff has them; the globs are
gitignore-style, relative to the project file's folder (`config.globs`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from citelens.config.error import ConfigError
from citelens.config.globs import PathGlobs
from citelens.source.toml_lines import Table, TomlLines

#: folders no run lives in, whatever `exclude` says: version control, environments,
#: tools' caches and our own indexes (`.citelens/`)
ALWAYS_EXCLUDED: Final[tuple[str, ...]] = (
    ".git/",
    ".hg/",
    ".svn/",
    ".venv/",
    "venv/",
    "node_modules/",
    "__pycache__/",
    "site-packages/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".pytest_cache/",
    ".citelens/",
)
#: what `exclude` replaces (`extend-exclude` adds to it): hidden folders, build output
DEFAULT_EXCLUDE: Final[tuple[str, ...]] = (".*/", "build/", "dist/")


@dataclass(frozen=True)
class Exclusion:
    """A project's exclusion settings (`base`: the folder its globs are relative to)."""

    base: Path
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True

    def globs(self) -> PathGlobs:
        return _globs(self)


@lru_cache(maxsize=256)
def _globs(exclusion: Exclusion) -> PathGlobs:
    """One matcher per exclusion (a folder search asks for it at every file)."""
    return PathGlobs((*ALWAYS_EXCLUDED, *exclusion.exclude, *exclusion.extend_exclude), exclusion.base)


def read_exclusion(raw: dict[str, Any], path: Path, lines: TomlLines, table: Table) -> Exclusion:
    """The exclusion keys of a project table, validated (a `ConfigError` on the key's line)."""
    values: dict[str, Any] = {}
    for key in ("exclude", "extend-exclude"):
        if key not in raw:
            continue
        value = raw[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(
                f"{key!r} must be a list of gitignore-style globs (strings), not {value!r}",
                path,
                lines.line_of(table, key),
            )
        values[key.replace("-", "_")] = tuple(value)
    if "respect-gitignore" in raw:
        value = raw["respect-gitignore"]
        if not isinstance(value, bool):
            raise ConfigError(
                f"'respect-gitignore' must be true or false, not {value!r}",
                path,
                lines.line_of(table, "respect-gitignore"),
            )
        values["respect_gitignore"] = value
    return Exclusion(path.parent, **values)
