"""Track specs: the per-track-year rules, as data (see builtin.toml)."""

from __future__ import annotations

from pathlib import Path

from citelens.specs.loader import SpecError, builtin_specs, load_spec_file
from citelens.specs.model import DEFAULT_SMELLS, FINDING_CODES, SMELL_CODES, TrackSpec

#: every code a spec may list under `smells` (autojudge-base's categories and CiteLens's own)
KNOWN_SMELL_CATEGORIES = SMELL_CODES

__all__ = [
    "DEFAULT_SMELLS",
    "FINDING_CODES",
    "KNOWN_SMELL_CATEGORIES",
    "SpecError",
    "TrackSpec",
    "builtin_specs",
    "get_spec",
    "load_spec_file",
    "resolve_spec",
]


def get_spec(track: str, task: str | None = None) -> TrackSpec:
    """A built-in spec by id; with `task`, only a spec of that task (KeyError otherwise,
    naming the known ids or the spec's task)."""
    specs = builtin_specs()
    if track not in specs:
        raise KeyError(f"unknown track spec {track!r}; known: {', '.join(sorted(specs))}")
    spec = specs[track]
    if task is not None and spec.task != task:
        raise KeyError(f"track spec {track!r} is for the {spec.task!r} task, not {task!r}")
    return spec


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
