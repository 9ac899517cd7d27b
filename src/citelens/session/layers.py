"""Settings layers and their precedence: the command line, then the project file, then
the editor settings of the folder holding the file (then the editor's global settings),
then the initialization options, then the defaults.

Editor settings arrive from a client as loose JSON: a value of the wrong type is left
out with a message (the layer below it applies), never an exception, so a typo in an
editor setting cannot stop the checking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citelens.config.settings import (
    SETTING_KEYS,
    SETTING_TYPES,
    SEVERITY_VALUES,
    SUPPORT_JUDGES,
    Settings,
    always_error,
)
from citelens.specs import FINDING_CODES

if TYPE_CHECKING:
    from citelens.config.overrides import Override


@dataclass(frozen=True)
class Layer:
    """The keys one source sets, already typed; `origin` names the source."""

    origin: str
    values: Mapping[str, Any] = field(default_factory=dict)


def editor_layer(raw: Mapping[str, Any] | None, origin: str, base: Path | None) -> tuple[Layer, list[str]]:
    """A layer from editor settings or initialization options (relative paths are taken
    from `base`), and the messages about the values that were left out."""
    messages: list[str] = []
    values: dict[str, Any] = {}
    value: Any
    for key, value in (raw or {}).items():
        if key not in SETTING_KEYS:
            continue  # other clients' keys share the section; not ours to judge
        if value is None:
            continue
        kind: Any = SETTING_TYPES[key]
        if not isinstance(value, kind) or (kind is list and not all(isinstance(v, str) for v in value)):
            messages.append(f"{origin}: {key!r} must be {_EXPECTED[key]}, not {value!r}; ignored")
            continue
        if key == "severity":
            table = {}
            for code, level in value.items():
                if code not in FINDING_CODES or level not in SEVERITY_VALUES:
                    messages.append(
                        f"{origin}: severity {code!r} = {level!r} is not a known code and level; ignored"
                    )
                elif always_error(code, level):
                    messages.append(f"{origin}: {always_error(code, level)}; ignored")
                else:
                    table[code] = level
            values[key] = table
        elif key == "support_thresholds":
            problem = _threshold_problem(value)
            if problem:
                messages.append(f"{origin}: support_thresholds: {problem}; ignored")
                continue
            values[key] = dict(value)
        elif key == "support_model":
            from citelens.config.model_table import model_table_problem

            model_problem = model_table_problem(value)
            if model_problem is not None:
                messages.append(f"{origin}: {model_problem[1]}; ignored")
                continue
            values[key] = dict(value)
        elif key == "support_judge" and value not in SUPPORT_JUDGES:
            messages.append(f"{origin}: 'support_judge' must be {_EXPECTED[key]}, not {value!r}; ignored")
            continue
        elif key == "topics":
            path = _path(value, base)
            if not path.is_file():
                messages.append(f"{origin}: 'topics': no file {path}; ignored")
                continue
            values[key] = path
        elif key == "spec":
            values[key] = _spec_value(value, base)
        elif kind is list:
            values[key] = tuple(value)
        else:
            values[key] = value
    return Layer(origin, values), messages


def cli_layer(cli: Mapping[str, Any] | None) -> Layer:
    """The caller's overrides (None means "not given"), typed like the other layers."""
    values: dict[str, Any] = {}
    for key, value in (cli or {}).items():
        if key not in SETTING_KEYS:
            raise TypeError(f"unknown setting {key!r}; known: {', '.join(SETTING_KEYS)}")
        if value is None:
            continue
        if key == "topics":
            values[key] = Path(value)
        elif key in ("corpora", "files"):
            values[key] = tuple(str(v) for v in value)
        elif key in ("strict", "support"):
            values[key] = bool(value)
        elif key in ("severity", "support_thresholds", "support_model"):
            values[key] = dict(value)
        else:
            values[key] = str(value)
    return Layer("command line", values)


def project_layer(settings: Settings) -> Layer:
    """The keys a project file sets (as `load_config` read them)."""
    values = {key: getattr(settings, key) for key in SETTING_KEYS if key in settings.origins}
    return Layer(str(settings.source), values)


def override_layer(override: Override) -> Layer:
    """The keys one `[[overrides]]` table sets, named after the table."""
    return Layer(override.origin, project_layer(override.settings).values)


def resolve(layers: list[Layer], source: Path | None) -> Settings:
    """Settings from layers given weakest first: each key from the strongest layer that
    sets it; severity tables merge code by code."""
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    severity: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.values.items():
            if key == "severity":
                severity.update(value)
            else:
                values[key] = value
            origins[key] = layer.origin
    return replace(Settings(), **values, severity=severity, source=source, origins=origins)


def _path(value: str, base: Path | None) -> Path:
    path = Path(value).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return path.resolve()


def _spec_value(value: str, base: Path | None) -> str:
    """A built-in id as it is; a spec file made absolute (`FILE#ID` kept)."""
    from citelens.specs import builtin_specs

    if value in builtin_specs():
        return value
    file_part, hash_, wanted = value.partition("#")
    return f"{_path(file_part, base)}{hash_}{wanted}"


_EXPECTED = {
    "spec": "a spec id or spec file",
    "topics": "a file path",
    "strict": "true or false",
    "severity": "an object of code: level",
    "corpora": "a list of strings",
    "files": "a list of strings",
    "support": "true or false",
    "support_thresholds": "an object of threshold: value",
    "support_judge": "one of lexical, llm, nli, cascade",
    "support_model": "an object of endpoint, model, key_env, nli_model, prompt, on_save",
}


def _threshold_problem(table: Mapping[str, Any]) -> str | None:
    """Why a support_thresholds table cannot be used (None: it can)."""
    problem = threshold_problem(table)
    return f"{problem[0]}: {problem[1]}" if problem else None


def threshold_problem(table: Mapping[str, Any]) -> tuple[str, str] | None:
    """(threshold name, what is wrong) for the first unusable entry; None: all usable."""
    if not table:
        return None
    from citelens.config.settings import suggestion
    from citelens.support.settings import SupportSettings, ThresholdError, default_settings

    known = SupportSettings.names()
    for key in table:
        if key not in known:
            return (
                key,
                f"unknown support threshold {key!r}{suggestion(key, known)}; known: {', '.join(known)}",
            )
    try:
        default_settings().with_overrides(dict(table))
    except ThresholdError as err:
        return err.name, f"support_thresholds.{err.name}: {err.problem}"
    return None


def check_project_thresholds(settings: Settings) -> None:
    """A project file's support_thresholds, checked by the support layer: a ConfigError on
    the line of the first bad entry."""
    problem = threshold_problem(settings.support_thresholds)
    if problem is None or settings.source is None:
        return
    from citelens.config.error import ConfigError
    from citelens.config.loader import CONFIG_FILES
    from citelens.source.toml_lines import TomlLines

    key, message = problem
    table = CONFIG_FILES.get(settings.source.name, ())
    line = TomlLines(settings.source.read_text(encoding="utf-8")).line_of((*table, "support_thresholds"), key)
    raise ConfigError(message, settings.source, line)
