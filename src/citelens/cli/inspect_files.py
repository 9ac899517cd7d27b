"""`citelens check --show-settings FILE` and `--show-files PATH`: what a check would do,
without checking. The settings a file is checked with, key by key, and where each value
came from (the command line, a project file, one of its `[[overrides]]`, the default);
the runs a folder holds, and every file that looks like one but is not, with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from citelens.cli import EXIT_OK, EXIT_USAGE
from citelens.config.settings import SETTING_KEYS

if TYPE_CHECKING:
    from citelens.session import Workspace
    from citelens.session.run_files import RunFiles


def _value(value: object) -> str:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(repr(v) for v in value) + "]"
    if isinstance(value, dict) or hasattr(value, "items"):
        return "{" + ", ".join(f"{k} = {v!r}" for k, v in dict(value).items()) + "}"  # type: ignore[call-overload]
    if isinstance(value, bool):
        return "true" if value else "false"
    return "(none)" if value is None else str(value)


def show_settings(workspace: Workspace, paths: list[str], out: TextIO) -> int:
    from citelens.config import ConfigError
    from citelens.session.run_files import RunFinder

    finder = RunFinder(workspace)
    status = EXIT_OK
    for name in paths:
        path = Path(name).absolute()
        try:
            settings = workspace.settings_for(path)
        except ConfigError as exc:
            out.write(f"{name}: {exc}\n")
            status = EXIT_USAGE
            continue
        project = settings.source
        out.write(f"{name}\n  project file: {project if project is not None else '(none)'}\n")
        if path.is_file():
            why = finder.not_a_run(path)
            out.write(f"  a run: {'yes' if why is None else 'no, ' + why}\n")
        for key in SETTING_KEYS:
            out.write(
                f"  {key} = {_value(getattr(settings, key))}  ({settings.origins.get(key, 'default')})\n"
            )
    return status


def show_files(found: RunFiles, out: TextIO) -> int:
    """The runs found (one path a line), then the skipped files as `# skipped PATH: why`."""
    for path in found.paths:
        out.write(f"{path}\n")
    for skipped in found.skipped:
        out.write(f"# skipped {skipped.path}: {skipped.reason}\n")
    return EXIT_USAGE if found.problems else EXIT_OK
