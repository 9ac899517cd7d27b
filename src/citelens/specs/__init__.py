"""Track specs: the per-track-year rules, as data (see builtin.toml)."""

from __future__ import annotations

from citelens.specs.loader import SpecError, builtin_specs, load_spec_file
from citelens.specs.model import FINDING_CODES, TrackSpec
from citelens.specs.reference import SpecRef, parse_spec_ref, require_spec, resolve_spec

__all__ = [
    "FINDING_CODES",
    "SpecError",
    "SpecRef",
    "TrackSpec",
    "builtin_specs",
    "get_spec",
    "load_spec_file",
    "parse_spec_ref",
    "require_spec",
    "resolve_spec",
]


def get_spec(track: str) -> TrackSpec:
    """A built-in spec by id (KeyError names the known ids)."""
    specs = builtin_specs()
    if track not in specs:
        raise KeyError(f"unknown track spec {track!r}; known: {', '.join(sorted(specs))}")
    return specs[track]
