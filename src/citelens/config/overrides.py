"""A project file as a whole: its settings, its `[[overrides]]` (per-folder and per-file
settings) and its exclusion settings.

```toml
[[tool.citelens.overrides]]      # [[overrides]] in citelens.toml
files = ["ragtime/*.jsonl"]      # gitignore-style, relative to this file's folder
spec = "ragtime26"
topics = "ragtime/topics.jsonl"  # relative to this file's folder too
```

An override applies to a file one of its `files` globs matches; it may set any run setting
(not `files`, `exclude` or another override); of several that match, later tables win.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from citelens.config.error import ConfigError
from citelens.config.exclude import Exclusion, read_exclusion
from citelens.config.globs import PathGlobs
from citelens.config.loader import read_table, settings_from_table
from citelens.config.settings import Settings


@dataclass(frozen=True)
class Override:
    """One `[[overrides]]` table: the files it applies to and what it sets."""

    files: tuple[str, ...]
    globs: PathGlobs = field(compare=False)
    settings: Settings  # only the keys in `settings.origins` are set
    origin: str  # "FILE [[overrides]] #N (globs)", for --show-settings

    def applies_to(self, path: Path) -> bool:
        return self.globs.matches(path)


@dataclass(frozen=True)
class ProjectFile:
    path: Path
    settings: Settings
    overrides: tuple[Override, ...] = ()
    exclusion: Exclusion | None = None

    def overrides_for(self, path: Path) -> list[Override]:
        """The overrides that apply to `path`, weakest first."""
        return [o for o in self.overrides if o.applies_to(path)]


def load_project(path: str | Path) -> ProjectFile:
    """Read a project file: settings, overrides and exclusion, each validated with the
    line of the problem."""
    return project_from_text(None, path)


def project_from_text(text: str | None, path: str | Path) -> ProjectFile:
    """A project file from its text (None: read it from `path`)."""
    raw, path, lines, table = read_table(path, text)
    settings = settings_from_table(raw, path, lines, table)
    exclusion = read_exclusion(raw, path, lines, table)
    entries = raw.get("overrides", [])
    name = ".".join((*table, "overrides"))
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(
            f"'overrides' must be an array of tables ([[{name}]] with files = [...] and settings)",
            path,
            lines.line_of(table, "overrides"),
        )
    overrides = []
    for n, entry in enumerate(entries):
        where = (*table, "overrides", str(n))
        header = lines.tables.get(where)
        files = entry.get("files")
        if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
            raise ConfigError(
                f"[[{name}]] #{n + 1} needs files = [globs] (the files it applies to), not {files!r}",
                path,
                lines.line_of(where, "files") or header,
            )
        body = {k: v for k, v in entry.items() if k != "files"}
        part = settings_from_table(body, path, lines, where, project_keys=False)
        origin = f"{path} [[{name}]] #{n + 1} ({', '.join(files)})"
        part = Settings(
            **{k: getattr(part, k) for k in part.origins},
            source=path,
            origins=dict.fromkeys(part.origins, origin),
        )
        overrides.append(Override(tuple(files), PathGlobs(files, path.parent), part, origin))
    return ProjectFile(path, settings, tuple(overrides), exclusion)
