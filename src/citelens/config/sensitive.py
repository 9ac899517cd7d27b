"""The settings that reach beyond the checked files: they contact a host, send a
credential or run a program.

A cloned repository is untrusted input, so such a value is honoured from the user's own
settings (command line, environment, user-level editor settings, the user config file)
and from a project file only once the user has trusted that file (`config.trust`). This
table is the one place that says which values those are; `docs/security.md` lists it, and
a new setting of the kind is a new row here, not a new check elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class Sensitive:
    """One kind of value that needs trust in a project file."""

    setting: str  # the setting (or editor setting) that holds it
    value: str  # which of its values, in words
    does: str  # what honouring it would do, as a verb phrase (shown when it is ignored)
    holder: str  # who honours it: "engine" (project files) or "vscode" (workspace trust)
    matches: Callable[[Any], bool] | None = None  # for an engine row: is this entry one?


def _location(entry: str) -> str:
    return entry.strip().split(";", 1)[0].strip().lower()


def _is_service(entry: str) -> bool:
    return _location(entry).startswith(("http://", "https://"))


def _names_token(entry: str) -> bool:
    return any(part.partition("=")[0].strip() == "token_env" for part in entry.split(";")[1:])


SENSITIVE: Final[tuple[Sensitive, ...]] = (
    Sensitive(
        "corpora",
        "a document service address (`http://...` or `https://...`)",
        "contact a host",
        "engine",
        _is_service,
    ),
    Sensitive(
        "corpora",
        "the `;token_env=NAME` option of a source",
        "send the value of an environment variable as a bearer token",
        "engine",
        _names_token,
    ),
    Sensitive(
        "support_model",
        "any value (the model judge's endpoint, model, key variable, model folder)",
        "send the cited documents to a model endpoint, with a key from an environment variable",
        "engine",
        lambda entry: bool(entry),
    ),
    Sensitive(
        "citelens.interpreter",
        "any value",
        "run a program (the Python that starts the language server)",
        "vscode",
    ),
    Sensitive(
        "citelens.corpora",
        "any value (the entries above, from `.vscode/settings.json`)",
        "contact a host or send a credential",
        "vscode",
    ),
)


def why_sensitive(setting: str, entry: Any) -> list[str]:
    """What honouring this entry of an engine setting would do (empty: nothing that needs trust)."""
    return [
        row.does
        for row in SENSITIVE
        if row.holder == "engine"
        and row.setting == setting
        and row.matches is not None
        and row.matches(entry)
    ]
