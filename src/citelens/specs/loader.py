"""Read track specs from the bundled TOML table and from users' YAML or TOML files.

A spec file holds `specs: {ID: {field: value, ...}}` (the autojudge-base layout) or a
single spec with a `track` key. `extends = "ID"` starts from another spec. Every problem
is a `SpecError` naming the file, the line and the accepted values, because a typo in a
smell list would otherwise silently never demote anything.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from citelens.check.spec_table import SpecError as SpecError
from citelens.check.spec_table import expect
from citelens.check.track_spec import spec_from_table
from citelens.source.toml_lines import TomlLines, syntax_error
from citelens.specs.model import TrackSpec

BUILTIN_PATH = Path(__file__).with_name("builtin.toml")


@dataclass
class _Lines:
    """Line numbers of spec tables and their keys, for messages (1-based)."""

    spec: dict[str, int]
    key: dict[tuple[str, str], int]

    def of(self, spec_id: str, key: str | None = None) -> int | None:
        if key is not None and (spec_id, key) in self.key:
            return self.key[(spec_id, key)]
        return self.spec.get(spec_id)


def _toml_lines(text: str) -> _Lines:
    """The lines of `[specs.ID]` tables and their keys (dotted and inline keys too)."""
    toml = TomlLines(text)
    spec_lines = {table[1]: n for table, n in toml.tables.items() if len(table) == 2 and table[0] == "specs"}
    key_lines: dict[tuple[str, str], int] = {}
    for (table, key), n in toml.keys.items():
        if len(table) == 2 and table[0] == "specs":
            key_lines[(table[1], key)] = n
        elif table == ("specs",):
            spec_lines.setdefault(key, n)  # `specs.ID = { ... }` / `[specs] ID = { ... }`
    return _Lines(spec_lines, key_lines)


def _yaml_load(text: str, path: str) -> tuple[Any, _Lines]:
    import yaml  # only user YAML files need it

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}", path, mark.line + 1 if mark else None
        ) from None
    spec_lines: dict[str, int] = {}
    key_lines: dict[tuple[str, str], int] = {}

    def table(node: Any) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for k, v in node.value:
            spec_lines[str(k.value)] = k.start_mark.line + 1
            if isinstance(v, yaml.MappingNode):
                for fk, _fv in v.value:
                    key_lines[(str(k.value), str(fk.value))] = fk.start_mark.line + 1

    if isinstance(root, yaml.MappingNode):
        top = {str(k.value): v for k, v in root.value}
        if "specs" in top:
            table(top["specs"])
        else:
            single = str(data.get("track", "")) if isinstance(data, dict) else ""
            for k, _v in root.value:
                key_lines[(single, str(k.value))] = k.start_mark.line + 1
            spec_lines[single] = 1
    return data, _Lines(spec_lines, key_lines)


def build_spec(spec_id: str, raw: dict[str, Any], path: str | None, lines: _Lines) -> TrackSpec:
    """Validate one resolved (extends already applied) table and build the spec."""
    return spec_from_table(spec_id, raw, path, lines)


def _resolve(
    tables: dict[str, dict[str, Any]], base: dict[str, TrackSpec], path: str | None, lines: _Lines
) -> dict[str, TrackSpec]:
    out: dict[str, TrackSpec] = {}

    def raw_of(spec_id: str, seen: tuple[str, ...]) -> dict[str, Any]:
        table = tables[spec_id]
        expect(
            isinstance(table, dict), f"spec {spec_id!r} must be a table of fields", path, lines.of(spec_id)
        )
        parent = table.get("extends")
        if parent is None:
            return dict(table)
        expect(
            parent not in seen,
            f"spec {spec_id!r}: `extends` loops through {parent!r}",
            path,
            lines.of(spec_id, "extends"),
        )
        if parent in tables:
            merged = raw_of(parent, seen + (spec_id,))
        elif parent in base:
            merged = base[parent].describe()
        else:
            raise SpecError(
                f"spec {spec_id!r} extends unknown spec {parent!r}; known: "
                f"{', '.join(sorted(set(tables) | set(base)))}",
                path,
                lines.of(spec_id, "extends"),
            )
        merged.pop("track", None)
        merged.update({k: v for k, v in table.items() if k != "extends"})
        return merged

    for spec_id in tables:
        out[spec_id] = build_spec(spec_id, raw_of(spec_id, ()), path, lines)
    return out


def parse_spec_text(text: str, path: str, base: dict[str, TrackSpec] | None = None) -> dict[str, TrackSpec]:
    """Specs from the text of a .toml/.yml/.yaml/.json spec file (by suffix)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            reason, line = syntax_error(exc)
            raise SpecError(f"not valid TOML: {reason}", path, line) from None
        lines = _toml_lines(text)
    elif suffix in (".yml", ".yaml", ".json"):
        data, lines = _yaml_load(text, path)
    else:
        raise SpecError("spec files must end in .toml, .yml, .yaml or .json", path)
    if not isinstance(data, dict):
        raise SpecError("a spec file holds `specs: {ID: {...}}` or one spec with a `track` key", path, 1)
    if "specs" in data:
        tables = data["specs"]
        expect(isinstance(tables, dict), "`specs` must map spec ids to tables", path, 1)
        expect(bool(tables), "`specs` is empty: the file defines no spec", path, 1)
    elif "track" in data or "extends" in data:
        tables = {str(data.get("track") or "custom"): data}
    else:
        raise SpecError("a spec file holds `specs: {ID: {...}}` or one spec with a `track` key", path, 1)
    return _resolve({str(k): v for k, v in tables.items()}, base or {}, path, lines)


def load_spec_file(path: str | Path, base: dict[str, TrackSpec] | None = None) -> dict[str, TrackSpec]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read spec file: {exc}", str(p)) from None
    return parse_spec_text(text, str(p), base=builtin_specs() if base is None else base)


@cache
def builtin_specs() -> dict[str, TrackSpec]:
    return parse_spec_text(BUILTIN_PATH.read_text(encoding="utf-8"), str(BUILTIN_PATH), base={})
