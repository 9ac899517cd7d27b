"""The one reading of a spec argument, `ID | FILE | FILE#ID`, wherever a spec is named
(the command line, `citelens.toml`, `Report.verify("rag26")`, `convert(report, spec)`).

A built-in id wins; otherwise the text is a spec file, optionally with `#ID` naming one
of its specs. A relative file is taken from `base_dir` when given (a config file's
directory).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citelens.check.track_spec import TrackSpec
from citelens.specs.loader import SpecError, builtin_specs, load_spec_file

SPEC_FILE_SUFFIXES = (".toml", ".yml", ".yaml", ".json")


@dataclass(frozen=True)
class SpecRef:
    """What a spec argument names: a built-in id (`path` None), or a file and maybe an id."""

    text: str  # as the user wrote it
    path: Path | None
    spec_id: str  # the built-in id, or the `#ID` part ("" when a file is named alone)

    @property
    def looks_like_file(self) -> bool:
        """Named as a file: it exists, or it has a spec file's suffix."""
        return self.path is not None and (
            self.path.exists() or self.path.suffix.lower() in SPEC_FILE_SUFFIXES
        )

    def specs(self) -> dict[str, TrackSpec]:
        """Every spec the argument names: one built-in, or all of the file's."""
        if self.path is None:
            return {self.spec_id: builtin_specs()[self.spec_id]}
        from citelens.files import FileError, read_bytes

        try:
            read_bytes(self.path)  # the real cause when it cannot be read (a loop, a directory)
        except FileError as exc:
            raise SpecError(exc.reason, exc.path) from None
        loaded = load_spec_file(self.path)
        if self.spec_id:
            if self.spec_id not in loaded:
                raise SpecError(
                    f"no spec {self.spec_id!r} in this file; it has: {', '.join(loaded)}", str(self.path)
                )
            return {self.spec_id: loaded[self.spec_id]}
        return loaded

    def spec(self) -> TrackSpec:
        """The one spec the argument names (a file of several needs `#ID`)."""
        if self.path is not None and not self.looks_like_file:
            known = ", ".join(sorted(builtin_specs()))
            raise SpecError(
                f"unknown track spec {self.text!r}: not a built-in id ({known}) and not a spec file"
            )
        specs = self.specs()
        if len(specs) != 1:
            raise SpecError(
                f"the file defines {len(specs)} specs ({', '.join(specs)}); name one as {self.text.partition('#')[0]}#ID",
                str(self.path),
            )
        return next(iter(specs.values()))


def parse_spec_ref(text: str, base_dir: Path | None = None) -> SpecRef:
    """Split a spec argument (no file is read); an empty one is a `SpecError`."""
    if not text.strip():
        raise SpecError("the spec id is empty; give a built-in id (see `citelens specs`) or a spec file")
    if text in builtin_specs():
        return SpecRef(text, None, text)
    file_part, _, wanted = text.partition("#")
    path = Path(file_part)
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    return SpecRef(text, path, wanted)


def resolve_spec(spec: str | Path | TrackSpec | None, base_dir: Path | None = None) -> TrackSpec | None:
    """A spec from an id, a spec file path (one spec, or `FILE#ID`), or a spec object."""
    if spec is None or isinstance(spec, TrackSpec):
        return spec
    if not isinstance(spec, (str, Path)):
        raise TypeError(f"spec must be a TrackSpec, a track id or None; got {type(spec).__name__}")
    return parse_spec_ref(str(spec), base_dir).spec()


def require_spec(spec: str | Path | TrackSpec) -> TrackSpec:
    """`resolve_spec` for a spec that must be given (a conversion's target)."""
    resolved = resolve_spec(spec)
    if resolved is None:
        raise TypeError("a target spec is required")
    return resolved
