"""Track specs: the per-track-year rules, as data (see builtin.toml)."""

from __future__ import annotations

from pathlib import Path

from citelens.specs.loader import SpecError, builtin_specs, load_spec_file
from citelens.specs.model import FINDING_CODES, TrackSpec

__all__ = [
    "FINDING_CODES",
    "SpecError",
    "TrackSpec",
    "builtin_specs",
    "get_spec",
    "load_spec_file",
    "resolve_spec",
]


def get_spec(track: str) -> TrackSpec:
    """A built-in spec by id (KeyError names the known ids)."""
    specs = builtin_specs()
    if track not in specs:
        raise KeyError(f"unknown track spec {track!r}; known: {', '.join(sorted(specs))}")
    return specs[track]


def resolve_spec(spec: str | Path | TrackSpec | None, base_dir: Path | None = None) -> TrackSpec | None:
    """A spec from an id, a spec file path (one spec, or `FILE#ID`), or a spec object."""
    if spec is None or isinstance(spec, TrackSpec):
        return spec
    text = str(spec)
    specs = builtin_specs()
    if text in specs:
        return specs[text]
    file_part, _, wanted = text.partition("#")
    path = Path(file_part)
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    if path.suffix.lower() in (".toml", ".yml", ".yaml", ".json") and path.exists():
        loaded = load_spec_file(path)
        if wanted:
            if wanted not in loaded:
                raise SpecError(f"no spec {wanted!r} in this file; it has: {', '.join(loaded)}", str(path))
            return loaded[wanted]
        if len(loaded) != 1:
            raise SpecError(
                f"the file defines {len(loaded)} specs ({', '.join(loaded)}); name one as {file_part}#ID",
                str(path),
            )
        return next(iter(loaded.values()))
    raise SpecError(
        f"unknown track spec {text!r}: not a built-in id ({', '.join(sorted(specs))}) and not a spec file"
    )
