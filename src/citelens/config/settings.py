"""`Settings`: the resolved, fully defaulted options of one `citelens check` run.

Sources, weakest first: defaults, the nearest config file, the command line. The rule
for the last step is `merged_with`: whatever the command line gives wins; a severity
table is merged code by code.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

from citelens.config.error import ConfigError
from citelens.specs import FINDING_CODES
from citelens.specs.model import STRUCTURE_CODES

SeverityOverride = Literal["error", "warning", "info", "ignore"]
SEVERITY_VALUES: Final[tuple[str, ...]] = ("error", "warning", "info", "ignore")
#: the support judges a project may choose (`support_judge`); see citelens.support.model_judge
SUPPORT_JUDGES: Final[tuple[str, ...]] = ("lexical", "llm", "nli", "cascade")
SETTING_KEYS: Final[tuple[str, ...]] = (
    "spec",
    "topics",
    "strict",
    "severity",
    "corpora",
    "files",
    "support",
    "support_thresholds",
    "support_judge",
    "support_model",
)

#: the type each setting has in a config file (and in editor settings)
SETTING_TYPES: Final[dict[str, type]] = {
    "spec": str,
    "topics": str,
    "strict": bool,
    "severity": dict,
    "corpora": list,
    "files": list,
    "support": bool,
    "support_thresholds": dict,
    "support_judge": str,
    "support_model": dict,
}


@dataclass(frozen=True)
class Settings:
    spec: str | None = None  # a built-in spec id, or an absolute spec file path (`FILE#ID` kept)
    topics: Path | None = None  # absolute path of the topics / requests file
    strict: bool = False
    severity: Mapping[str, SeverityOverride] = field(default_factory=dict)  # code -> override
    source: Path | None = None  # the config file these came from; None = defaults only
    corpora: tuple[str, ...] = ()  # document sources for evidence (read by the corpus layer)
    files: tuple[str, ...] = ()  # which files are run files (glob patterns)
    support: bool = False  # judge whether the cited documents support each sentence
    support_thresholds: Mapping[str, Any] = field(default_factory=dict)  # judge thresholds (citelens.support)
    # which judge: lexical | llm | nli | cascade (a model's endpoint and key: user settings only)
    support_judge: str = "lexical"
    # the model a model judge calls (config.model_table); needs trust in a project file
    support_model: Mapping[str, Any] = field(default_factory=dict)
    # where each key's value came from ("default", "command line", a config file path,
    # "editor settings (FOLDER)", "initialization options"); not part of equality
    origins: Mapping[str, str] = field(default_factory=dict, compare=False)
    # what a project file asked for that needs trust and was left out (`config.trust`)
    withheld: tuple[str, ...] = field(default=(), compare=False)

    def origin(self, key: str) -> str:
        """Where the value of `key` came from."""
        return self.origins.get(key, str(self.source) if self.source is not None else "default")

    def merged_with(self, cli_overrides: Mapping[str, Any]) -> Settings:
        """These settings with the command line's values on top.

        `cli_overrides` holds only keys of `SETTING_KEYS`; a None value means "flag not
        given" (so pass `--strict` as True/None, not True/False). Severity overrides
        are merged per code; paths are taken as given (the CLI makes them absolute).
        """
        unknown = set(cli_overrides) - set(SETTING_KEYS)
        if unknown:
            raise TypeError(f"unknown settings {sorted(unknown)}; known: {', '.join(SETTING_KEYS)}")
        changes: dict[str, Any] = {}
        for key, value in cli_overrides.items():
            if value is None:
                continue
            if key == "severity":
                changes[key] = {**self.severity, **check_severity_table(value, "command line")}
            elif key == "topics":
                changes[key] = Path(value)
            elif key in ("strict", "support"):
                changes[key] = bool(value)
            elif key in ("corpora", "files"):
                changes[key] = tuple(str(v) for v in value)
            else:
                changes[key] = str(value)
        origins = {**self.origins, **dict.fromkeys(changes, "command line")}
        return replace(self, **changes, origins=origins)


def suggestion(word: str, known: tuple[str, ...] | list[str]) -> str:
    """' (did you mean X?)' for a near miss, else ''."""
    close = difflib.get_close_matches(word, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_severity_table(
    table: Mapping[str, Any], where: str, line_of: Any | None = None, path: Path | None = None
) -> dict[str, SeverityOverride]:
    """A validated copy of a `code -> severity` table; `line_of(code)` locates errors."""
    out: dict[str, SeverityOverride] = {}
    for code, value in table.items():
        line = line_of(code) if line_of else None
        if code not in FINDING_CODES:
            raise ConfigError(
                f"{where}: unknown finding code {code!r}{suggestion(code, FINDING_CODES)}; "
                f"known codes: {', '.join(FINDING_CODES)}",
                path,
                line,
            )
        if value not in SEVERITY_VALUES:
            raise ConfigError(
                f"{where}: severity of {code!r} must be one of {', '.join(SEVERITY_VALUES)}, not {value!r}",
                path,
                line,
            )
        if always_error(code, value):
            raise ConfigError(f"{where}: {always_error(code, value)}", path, line)
        out[code] = value
    return out


def always_error(code: str, value: object) -> str | None:
    """Why `code = value` cannot be set (None if it can): the codes of a file that cannot
    be read are always errors, since no rule can check what was not read."""
    if code in STRUCTURE_CODES and value != "error":
        return (
            f"{code!r} is always an error (what it reports cannot be checked at all); "
            f"it cannot be set to {value!r}. Always errors: {', '.join(STRUCTURE_CODES)}"
        )
    return None
