"""Track specs: the per-track-year rules, as data (see builtin.toml)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export
from citelens.check.spec_table import SpecError

if TYPE_CHECKING:
    from citelens.specs.loader import builtin_specs, load_spec_file
    from citelens.specs.model import DEFAULT_SMELLS, FINDING_CODES, SMELL_CODES, TrackSpec
    from citelens.specs.reference import SpecRef, parse_spec_ref, require_spec, resolve_spec

    #: every code a spec may list under `smells` (autojudge-base's categories and CiteLens's own)
    KNOWN_SMELL_CATEGORIES = SMELL_CODES

# The spec tables load on first use (`SpecError` alone stays light).
_EXPORTS = {
    **dict.fromkeys(("builtin_specs", "load_spec_file"), "citelens.specs.loader"),
    **dict.fromkeys(("DEFAULT_SMELLS", "FINDING_CODES", "SMELL_CODES", "TrackSpec"), "citelens.specs.model"),
    **dict.fromkeys(
        ("SpecRef", "parse_spec_ref", "require_spec", "resolve_spec"), "citelens.specs.reference"
    ),
}

__all__ = [
    "DEFAULT_SMELLS",
    "FINDING_CODES",
    "KNOWN_SMELL_CATEGORIES",
    "SpecError",
    "SpecRef",
    "TrackSpec",
    "builtin_specs",
    "get_spec",
    "load_spec_file",
    "newest_spec",
    "parse_spec_ref",
    "require_spec",
    "resolve_spec",
]


def get_spec(track: str, task: str | None = None) -> TrackSpec:
    """A built-in spec by id; with `task`, only a spec of that task (KeyError otherwise,
    naming the known ids or the spec's task)."""
    import citelens.specs as package  # its `builtin_specs`, loaded on first use (or replaced)

    specs = package.builtin_specs()
    if track not in specs:
        raise KeyError(f"unknown track spec {track!r}; known: {', '.join(sorted(specs))}")
    spec = specs[track]
    if task is not None and spec.task != task:
        raise KeyError(f"track spec {track!r} is for the {spec.task!r} task, not {task!r}")
    return spec


def newest_spec(family: str) -> str:
    """The id of the newest built-in spec of a track family (`rag` -> `rag26`): the ids
    are the family and a two-digit year, so adding a year to the spec data moves it."""
    import citelens.specs as package

    years = [
        spec_id
        for spec_id in package.builtin_specs()
        if spec_id[len(family) :].isdigit() and spec_id.startswith(family)
    ]
    if not years:
        raise KeyError(f"no built-in spec of the track family {family!r}")
    return max(years, key=lambda spec_id: int(spec_id[len(family) :]))


def __getattr__(name: str) -> Any:
    if name == "KNOWN_SMELL_CATEGORIES":
        globals()[name] = value = lazy_export(globals(), _EXPORTS, "SMELL_CODES")
        return value
    return lazy_export(globals(), _EXPORTS, name)
