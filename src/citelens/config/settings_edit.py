"""Writing one setting into a project file in place: `citelens.toml`, or the
`[tool.citelens]` table of `pyproject.toml`, every other key, comment and line kept.

A setting is written for the folder of the file it is asked for: in the project file's
own folder it is a top-level key; in a sub-folder it goes into the `[[overrides]]` table
that already applies to the file (or a new one with `files = ["FOLDER/**"]`), so the runs
of the other folders keep their settings. Paths are written relative to the project file.
The result is read back: an edit that would not give the value is refused. The edit
remembers the file as it was read (`files.snapshot`), and writing it refuses when the file
changed meanwhile (an editor saved it, a pull replaced it), so that change is never lost.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citelens.config.error import ConfigError
from citelens.config.loader import CONFIG_FILES, find_config
from citelens.files.snapshot import Snapshot
from citelens.source.toml_lines import Table, TomlLines

#: settings whose values are paths (written relative to the project file)
PATH_KEYS = frozenset({"topics"})


@dataclass(frozen=True)
class SettingEdit:
    """Replace lines `[start, end)` (0-based) of `path` by `new_text`; `created`: the file
    does not exist yet (its whole text is `new_text`)."""

    path: Path
    start: int
    end: int
    new_text: str
    created: bool
    result: str  # the file's whole text after the edit
    where: str  # in words: "pyproject.toml [tool.citelens]", "... [[overrides]] #2"
    #: the project file as it was read (None: `created`, there was none)
    read_as: Snapshot | None = None

    def apply(self) -> None:
        """Write the edit (atomically; see `citelens.files.write`), only onto the file as
        it was read: a `FileError` says what changed, and nothing is written."""
        from citelens.files import FileError, write_file

        if self.created and self.path.exists():
            raise FileError(
                self.path,
                "the file was created while citelens worked on it; it was not written, so "
                "nothing of it is lost: run the command again",
            )
        write_file(self.path, self.result.encode("utf-8"), unchanged_since=self.read_as)


def toml_value(value: Any) -> str:
    """A TOML literal for a setting's value (strings as basic strings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as a setting")


def _relative(value: Any, key: str, base: Path) -> Any:
    if key in PATH_KEYS and isinstance(value, str | Path):
        path = Path(value)
        if path.is_absolute():
            try:
                return Path(os.path.relpath(path, base)).as_posix()
            except ValueError:  # another drive
                return str(path)
        return Path(value).as_posix()
    if key == "corpora" and isinstance(value, list | tuple):
        out = []
        for item in value:
            location, sep, fields = str(item).partition(";")
            bare = location.removeprefix("index:")
            prefix = location[: len(location) - len(bare)]
            if Path(bare).is_absolute() and "://" not in bare:
                bare = _relative(bare, "topics", base)
            out.append(f"{prefix}{bare}{sep}{fields}")
        return out
    return value


def _value_end(lines: list[str], start: int) -> int:
    """The line after a key's value (a multi-line array or string spans several)."""
    depth = 0
    quote = None
    for n in range(start, len(lines)):
        text = lines[n]
        i = text.index("=") + 1 if n == start else 0
        while i < len(text):
            c = text[i]
            if quote:
                if text.startswith(quote, i):
                    i += len(quote) - 1
                    quote = None
                elif c == "\\" and quote == '"':
                    i += 1
            elif text.startswith(('"""', "'''"), i):
                quote = text[i : i + 3]
                i += 2
            elif c in "\"'":
                quote = c
            elif c == "#":
                break
            elif c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
            i += 1
        if depth <= 0 and quote not in ('"""', "'''"):
            return n + 1
        if quote in ('"', "'"):
            quote = None  # a basic string cannot span lines
    return len(lines)


def _table_end(lines: list[str], header: int | None) -> int:
    """The line after the last key of the table whose header is line `header` (0-based;
    None: the top level), before the blank lines and comments that precede the next."""
    start = header + 1 if header is not None else 0
    end = start
    n = start
    while n < len(lines):
        stripped = lines[n].strip()
        if stripped.startswith("["):
            break
        if stripped and not stripped.startswith("#"):
            n = _value_end(lines, n) if "=" in stripped else n + 1
            end = n
            continue
        n += 1
    return end


def setting_edit(
    target: Path, key: str, value: Any, *, project: Path | None = None, folder_of: Path | None = None
) -> SettingEdit:
    """The edit that sets `key = value` for the runs in `target`'s folder (`target`: a run
    or a folder). `project`: the project file to edit (default: the one governing
    `target`; a new `citelens.toml` in `folder_of`, or beside `target`, when there is none)."""
    target = target.absolute()
    folder = target if target.is_dir() else target.parent
    project = project or find_config(folder)
    if project is None:
        home = (folder_of or folder).absolute()
        path = home / "citelens.toml"
        scope = folder.relative_to(home).as_posix() if folder.is_relative_to(home) else "."
        text = _new_project(key, _relative(value, key, home), scope)
        return _checked(SettingEdit(path, 0, 0, text, True, text, "a new citelens.toml"), key, value, target)
    project = project.absolute()
    raw = project.read_bytes()
    read_as = Snapshot.of(project, raw)
    # as `read_text` reads it: universal newlines, a BOM dropped
    text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    table: Table = CONFIG_FILES.get(project.name, ())
    data = tomllib.loads(text)
    toml_lines = TomlLines(text)
    value = _relative(value, key, project.parent)
    written = f"{key} = {toml_value(value)}\n"
    name = ".".join(table) if table else project.name
    scope = folder.relative_to(project.parent).as_posix() if folder.is_relative_to(project.parent) else "."

    def at_key(where: Table, words: str) -> SettingEdit | None:
        line = toml_lines.keys.get((where, key))
        if line is None:
            return None
        end = _value_end(lines, line - 1)
        return _edit(project, lines, line - 1, end, written, words, read_as)

    if scope == ".":
        found = at_key(table, f"{project.name} [{name}]" if table else project.name)
        if found is not None:
            return _checked(found, key, value, target)
        header = toml_lines.tables.get(table)
        if table and header is None:  # a pyproject.toml without [tool.citelens]
            block = f"\n[{name}]\n{written}"
            return _checked(
                _edit(project, lines, len(lines), len(lines), block, f"{project.name} [{name}]", read_as),
                key,
                value,
                target,
            )
        end = _table_end(lines, header - 1 if header is not None else None)
        return _checked(
            _edit(project, lines, end, end, written, f"{project.name} [{name}]", read_as), key, value, target
        )

    from citelens.config.globs import PathGlobs

    section: Any = data
    for part in table:
        section = section.get(part, {}) if isinstance(section, dict) else {}
    entries = section.get("overrides", []) if isinstance(section, dict) else []
    applying = [
        n
        for n, entry in enumerate(entries)
        if isinstance(entry, dict) and PathGlobs(list(entry.get("files", [])), project.parent).matches(target)
    ]
    overrides = f"[[{'.'.join((*table, 'overrides'))}]]"
    for n in reversed(applying):  # the last table that sets the key decides: edit it there
        found = at_key((*table, "overrides", str(n)), f"{project.name} {overrides} #{n + 1}")
        if found is not None:
            return _checked(found, key, value, target)
    if applying:
        n = applying[-1]
        header = toml_lines.tables[(*table, "overrides", str(n))]
        end = _table_end(lines, header - 1)
        return _checked(
            _edit(project, lines, end, end, written, f"{project.name} {overrides} #{n + 1}", read_as),
            key,
            value,
            target,
        )
    block = f'\n{overrides}\nfiles = ["{scope}/**"]\n{written}'
    where = f"{project.name} {overrides} #{len(entries) + 1} ({scope}/**)"
    return _checked(_edit(project, lines, len(lines), len(lines), block, where, read_as), key, value, target)


def _new_project(key: str, value: Any, scope: str) -> str:
    written = f"{key} = {toml_value(value)}\n"
    if scope == ".":
        return written
    return f'[[overrides]]\nfiles = ["{scope}/**"]\n{written}'


def _edit(
    path: Path, lines: list[str], start: int, end: int, new_text: str, where: str, read_as: Snapshot
) -> SettingEdit:
    result = "".join(lines[:start]) + new_text + "".join(lines[end:])
    return SettingEdit(path, start, end, new_text, False, result, where, read_as)


def _checked(edit: SettingEdit, key: str, value: Any, target: Path) -> SettingEdit:
    """The edit, if the file it gives reads back with `key` set as asked for `target`."""
    from citelens.config.overrides import project_from_text

    try:
        project = project_from_text(edit.result, edit.path)
    except ConfigError as exc:
        raise ConfigError(f"setting {key} here would break the file: {exc}", edit.path) from None
    settings = project.settings
    for override in project.overrides_for(target):
        settings = override.settings if key in override.settings.origins else settings
    if key not in settings.origins:
        raise ConfigError(f"setting {key} in {edit.where} would not apply to {target}", edit.path)
    return edit
