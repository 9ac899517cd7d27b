"""Read track specs from the bundled TOML table and from users' YAML or TOML files.

A spec file holds `specs: {ID: {field: value, ...}}` (the autojudge-base layout) or a
single spec with a `track` key. `extends = "ID"` starts from another spec. Every problem
is a `SpecError` naming the file, the line and the accepted values, because a typo in a
smell list would otherwise silently never demote anything.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from citelens.source.located_error import LocatedError
from citelens.source.toml_lines import TomlLines, syntax_error
from citelens.specs.model import (
    LAYOUTS,
    LENGTH_UNITS,
    REFERENCES_KINDS,
    REQUIRED_FIELDS,
    SENTENCE_TYPES,
    SENTENCES_KEYS,
    SMELL_CODES,
    SPEC_FIELDS,
    TASKS,
    TOPIC_ID_FIELDS,
    TrackSpec,
)

BUILTIN_PATH = Path(__file__).with_name("builtin.toml")


class SpecError(LocatedError):
    """A spec file (or spec argument) problem: `PATH:LINE: reason`."""


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


def _expect(cond: bool, msg: str, path: str | None, line: int | None) -> None:
    if not cond:
        raise SpecError(msg, path, line)


def _list_of_str(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _one_of(
    spec_id: str, key: str, value: object, allowed: tuple[str, ...], path: str | None, lines: _Lines
) -> None:
    _expect(
        value in allowed,
        f"spec {spec_id!r}: {key} = {value!r} is not one of {list(allowed)}",
        path,
        lines.of(spec_id, key),
    )


def build_spec(spec_id: str, raw: dict[str, Any], path: str | None, lines: _Lines) -> TrackSpec:
    """Validate one resolved (extends already applied) table and build the spec."""
    d = dict(raw)
    d.setdefault("track", spec_id)
    for key in d:
        _expect(
            key in SPEC_FIELDS,
            f"spec {spec_id!r}: unknown field {key!r}; known fields: {', '.join(SPEC_FIELDS)}",
            path,
            lines.of(spec_id, key),
        )
    missing = [k for k in REQUIRED_FIELDS if k not in d]
    _expect(not missing, f"spec {spec_id!r}: missing required field(s) {missing}", path, lines.of(spec_id))
    if isinstance(d["sentence_type"], str):
        d["sentence_type"] = [d["sentence_type"]]
    for key in (
        "sentence_type",
        "mandatory_metadata",
        "recommended_metadata",
        "smells",
        "collection_ids",
        "string_ids",
        "same_on_every_line",
    ):
        if d.get(key) is not None:
            _expect(
                _list_of_str(d[key]),
                f"spec {spec_id!r}: {key} must be a list of strings",
                path,
                lines.of(spec_id, key),
            )
    _expect(
        bool(d["sentence_type"]),
        f"spec {spec_id!r}: sentence_type must not be empty",
        path,
        lines.of(spec_id, "sentence_type"),
    )
    for st in d["sentence_type"]:
        _one_of(spec_id, "sentence_type", st, SENTENCE_TYPES, path, lines)
    if d.get("smells") is not None:
        for code in d["smells"]:
            _expect(
                code in SMELL_CODES,
                f"spec {spec_id!r}: unknown smell category {code!r}; "
                f"known categories: {', '.join(SMELL_CODES)}",
                path,
                lines.of(spec_id, "smells"),
            )
    else:
        d.pop("smells", None)
    _one_of(spec_id, "task", d["task"], TASKS, path, lines)
    for key, allowed in (
        ("sentences_key", SENTENCES_KEYS),
        ("topic_id_field", TOPIC_ID_FIELDS),
        ("references_kind", REFERENCES_KINDS),
        ("length_unit", LENGTH_UNITS),
        ("layout", LAYOUTS),
    ):
        if key in d:
            _one_of(spec_id, key, d[key], allowed, path, lines)
    for key in ("run_id_max_len", "references_max", "max_citations_per_sentence", "length_limit"):
        v = d.get(key)
        _expect(
            v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0),
            f"spec {spec_id!r}: {key} must be a non-negative integer or null (got {v!r})",
            path,
            lines.of(spec_id, key),
        )
    for key in (
        "forbid_extra_metadata",
        "require_exact_narrative",
        "references_optional",
        "require_references_key",
        "require_citations_key",
        "flag_duplicate_citations",
    ):
        if key in d:
            _expect(
                isinstance(d[key], bool),
                f"spec {spec_id!r}: {key} must be true or false",
                path,
                lines.of(spec_id, key),
            )
    if d.get("docid_pattern") is not None:
        try:
            re.compile(d["docid_pattern"])
        except (re.error, TypeError) as exc:
            raise SpecError(
                f"spec {spec_id!r}: docid_pattern is not a valid regex: {exc}",
                path,
                lines.of(spec_id, "docid_pattern"),
            ) from None
    mv = d.get("metadata_values") or {}
    _expect(
        isinstance(mv, dict) and all(isinstance(v, list) for v in mv.values()),
        f"spec {spec_id!r}: metadata_values must map a key to a list of allowed values",
        path,
        lines.of(spec_id, "metadata_values"),
    )
    d["metadata_values"] = {k: tuple(v) for k, v in mv.items()}
    for key, value in list(d.items()):
        if isinstance(value, list):
            d[key] = tuple(value)
    return TrackSpec(**d)


def _resolve(
    tables: dict[str, dict[str, Any]], base: dict[str, TrackSpec], path: str | None, lines: _Lines
) -> dict[str, TrackSpec]:
    out: dict[str, TrackSpec] = {}

    def raw_of(spec_id: str, seen: tuple[str, ...]) -> dict[str, Any]:
        table = tables[spec_id]
        _expect(
            isinstance(table, dict), f"spec {spec_id!r} must be a table of fields", path, lines.of(spec_id)
        )
        parent = table.get("extends")
        if parent is None:
            return dict(table)
        _expect(
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
        _expect(isinstance(tables, dict), "`specs` must map spec ids to tables", path, 1)
        _expect(bool(tables), "`specs` is empty: the file defines no spec", path, 1)
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
