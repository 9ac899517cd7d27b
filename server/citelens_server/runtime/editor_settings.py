"""The editor-only settings and the split of an editor's settings object.

An editor sends one object (`initializationOptions`, or section `citelens` of
`workspace/configuration`). The engine keys (spec, topics, corpora, files, strict,
severity, support) go to the session's `Workspace`, which ranks them against the project
file; the keys only an editor has (debounceMs, inlayHints, trace) are read here. A wrong
value is logged and falls back to its default: never a crash, never a silent default.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

log = logging.getLogger("citelens_server")

Trace = Literal["off", "messages", "verbose"]
#: editor key -> (field, type check, description for messages)
EDITOR_KEYS: dict[str, tuple[str, type | tuple[type, ...], str]] = {
    "debounceMs": ("debounce_ms", (int, float), "a number of milliseconds >= 0"),
    "inlayHints": ("inlay_hints", bool, "true or false"),
    "trace": ("trace", str, "one of off, messages, verbose"),
}
TRACE_VALUES = ("off", "messages", "verbose")


@dataclass(frozen=True)
class EditorSettings:
    debounce_ms: float = 300.0
    inlay_hints: bool = True
    trace: Trace = "off"


def _valid(key: str, value: Any) -> bool:
    _, kind, _ = EDITOR_KEYS[key]
    if isinstance(value, bool) and kind is not bool:
        return False
    if not isinstance(value, kind):
        return False
    if key == "debounceMs":
        return isinstance(value, int | float) and value >= 0
    if key == "trace":
        return value in TRACE_VALUES
    return True


def split_settings(
    raw: Any, where: str, base: EditorSettings | None = None
) -> tuple[EditorSettings, dict[str, Any]]:
    """(editor settings over `base`, the engine keys) of one settings object."""
    base = base or EditorSettings()
    if raw is None:
        return base, {}
    if not isinstance(raw, Mapping):
        log.warning("%s: the citelens settings must be an object, not %s; ignored", where, type(raw).__name__)
        return base, {}
    changes: dict[str, Any] = {}
    engine: dict[str, Any] = {}
    for key, value in raw.items():
        if key in EDITOR_KEYS:
            if value is None:
                continue
            if _valid(key, value):
                changes[EDITOR_KEYS[key][0]] = float(value) if key == "debounceMs" else value
            else:
                log.warning(
                    "%s: %s must be %s, not %r; using %r",
                    where,
                    key,
                    EDITOR_KEYS[key][2],
                    value,
                    getattr(base, EDITOR_KEYS[key][0]),
                )
        else:
            engine[key] = value
    return EditorSettings(**{**base.__dict__, **changes}), engine
