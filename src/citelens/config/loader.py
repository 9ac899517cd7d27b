"""Find and read the config file for a checked file: `citelens.toml` or the
`[tool.citelens]` table of `pyproject.toml`, nearest directory first.

Every problem is a `ConfigError` naming the file, the line and the accepted values: a
misspelt severity code would otherwise silently never apply.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Final

from citelens.config.error import ConfigError
from citelens.config.model_table import model_table_problem
from citelens.config.project_keys import PROJECT_KEYS
from citelens.config.settings import (
    SETTING_KEYS,
    SETTING_TYPES,
    SUPPORT_JUDGES,
    Settings,
    check_severity_table,
    suggestion,
)
from citelens.config.trust import withhold_untrusted
from citelens.source.toml_lines import Table, TomlLines, syntax_error

#: config file name -> the table inside it that holds the settings (() = top level)
CONFIG_FILES: Final[dict[str, Table]] = {
    "citelens.toml": (),
    "pyproject.toml": ("tool", "citelens"),
}


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the config file: {exc}", path) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        reason, line = syntax_error(exc)
        raise ConfigError(f"not valid TOML: {reason}", path, line) from None


def _parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason, line = syntax_error(exc)
        raise ConfigError(f"not valid TOML: {reason}", path, line) from None


def _table(data: dict[str, Any], table: Table) -> object:
    value: Any = data
    for part in table:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _holds_settings(path: Path) -> bool:
    """Does this candidate file configure citelens (a pyproject may not)?"""
    table = CONFIG_FILES[path.name]
    if not table:
        return True
    try:
        if "citelens" not in path.read_text(encoding="utf-8-sig", errors="replace"):
            return False  # cheap: most pyproject files never mention us
    except OSError:
        return False
    return _table(_read_toml(path)[0], table) is not None


def find_config(start: str | Path) -> Path | None:
    """The nearest config file above `start` (a file or a directory), or None.

    In one directory `citelens.toml` wins over `pyproject.toml`; a `pyproject.toml`
    without `[tool.citelens]` does not stop the walk.
    """
    here = Path(start).absolute()
    folder = here if here.is_dir() else here.parent
    for directory in (folder, *folder.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file() and _holds_settings(candidate):
                return candidate
    return None


def _resolve_spec(value: str, base: Path, path: Path, line: int | None) -> str:
    """The spec setting checked and made absolute: a built-in id, or `FILE[#ID]` with FILE
    taken from the config file's directory (the spec itself is read when it is used)."""
    from citelens.specs import builtin_specs, parse_spec_ref

    ref = parse_spec_ref(value, base)
    if ref.path is None:
        return value
    spec_path = ref.path.resolve()
    if spec_path.is_file():
        return f"{spec_path}#{ref.spec_id}" if ref.spec_id else str(spec_path)
    known = sorted(builtin_specs())
    raise ConfigError(
        f"'spec': {value!r} is neither a built-in spec{suggestion(value, known)} "
        f"(known: {', '.join(known)}) nor a spec file (no file {spec_path})",
        path,
        line,
    )


def load_config(path: str | Path) -> Settings:
    """The settings in one config file, validated; relative paths are taken from the
    file's directory."""
    return settings_from_table(*read_table(path))


def read_table(path: str | Path, text: str | None = None) -> tuple[dict[str, Any], Path, TomlLines, Table]:
    """(the settings table of a config file, its absolute path, its key lines, the table's
    name); `text`: the file's text when it is not (yet) on disk."""
    path = Path(path).absolute()
    table = CONFIG_FILES.get(path.name, ())
    data, text = _read_toml(path) if text is None else (_parse_toml(text, path), text)
    raw = _table(data, table)
    lines = TomlLines(text)
    if raw is None:
        raise ConfigError(f"no [{'.'.join(table)}] table in this file", path)
    if not isinstance(raw, dict):
        raise ConfigError(f"'{'.'.join(table)}' must be a table", path, lines.line_of(table[:-1], table[-1]))
    return raw, path, lines, table


def settings_from_table(
    raw: dict[str, Any], path: Path, lines: TomlLines, table: Table, *, project_keys: bool = True
) -> Settings:
    """One table's settings, validated (the top table, or an `[[overrides]]` entry with
    `project_keys` False: files, exclusion and overrides are the project's, not a folder's)."""
    where = f"[{'.'.join(table)}]" if table else "citelens.toml"
    allowed = (*SETTING_KEYS, *PROJECT_KEYS) if project_keys else SETTING_KEYS

    def line(key: str, sub: Table = ()) -> int | None:
        return lines.line_of(table + sub, key)

    for key in raw:
        if key not in allowed:
            raise ConfigError(
                f"unknown setting {key!r}{suggestion(key, allowed)} in {where}; "
                f"known settings: {', '.join(allowed)}",
                path,
                line(key),
            )
    for key, kind in SETTING_TYPES.items():
        if key in raw and not isinstance(raw[key], kind):
            expected = {
                "str": "a string",
                "bool": "true or false",
                "dict": "a table of code = severity",
                "list": "a list of strings",
            }
            what = {
                "support_thresholds": "a table of threshold = value",
                "support_model": "a table of endpoint, model, key_env, ...",
            }.get(key, expected[kind.__name__])
            raise ConfigError(f"{key!r} must be {what}, not {raw[key]!r}", path, line(key))
    for key in ("corpora", "files"):
        bad = [v for v in raw.get(key, []) if not isinstance(v, str)]
        if bad:
            raise ConfigError(f"{key!r} must be a list of strings, not holding {bad[0]!r}", path, line(key))

    model_problem = model_table_problem(raw.get("support_model", {}))
    if model_problem is not None:
        raise ConfigError(model_problem[1], path, line(model_problem[0], ("support_model",)))
    raw, withheld = withhold_untrusted(raw, path)
    support_thresholds = _support_thresholds(raw.get("support_thresholds", {}), path, line)
    if raw.get("support_judge", "lexical") not in SUPPORT_JUDGES:
        raise ConfigError(
            f"'support_judge' must be one of {', '.join(SUPPORT_JUDGES)}, not {raw['support_judge']!r}",
            path,
            line("support_judge"),
        )
    base = path.parent
    spec = _resolve_spec(raw["spec"], base, path, line("spec")) if "spec" in raw else None
    topics = None
    if "topics" in raw:
        topics = (base / raw["topics"]).resolve()
        if not topics.is_file():
            raise ConfigError(f"'topics': no file {topics}", path, line("topics"))
    severity = check_severity_table(
        raw.get("severity", {}), "'severity'", lambda code: line(code, ("severity",)), path
    )
    return Settings(
        spec=spec,
        topics=topics,
        strict=raw.get("strict", False),
        severity=severity,
        source=path,
        corpora=tuple(raw.get("corpora", ())),
        files=tuple(raw.get("files", ())),
        support=raw.get("support", False),
        support_thresholds=support_thresholds,
        support_judge=raw.get("support_judge", "lexical"),
        support_model=dict(raw.get("support_model", {})),
        origins={key: str(path) for key in raw if key in SETTING_KEYS},
        withheld=(withheld,) if withheld else (),
    )


def _support_thresholds(table: dict[str, Any], path: Path, line: Any) -> dict[str, Any]:
    """The `[support_thresholds]` table: names and numbers. Which names exist and which
    values are allowed is the support layer's to say (`session` checks them on load)."""
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(
                f"support_thresholds.{key} must be a number, not {value!r}",
                path,
                line(key, ("support_thresholds",)),
            )
    return dict(table)


def settings_for(checked: str | Path) -> Settings:
    """The settings that apply to a checked file: its nearest config, or the defaults."""
    config = find_config(checked)
    return load_config(config) if config is not None else Settings()
