"""Which files are runs: one answer for `citelens check DIR`, the server's workspace
diagnostics, "Check All Runs" and the documents an editor opens.

A file is a run when its name matches the run globs (`*.jsonl`, `*.json`, the `files`
setting), it is not excluded (`exclude`/`extend-exclude` of its project file, `.gitignore`
unless that is turned off), the settings do not name it as a topics file, a corpus or a
spec, and its content is reports (a topics, corpus or nugget file is recognised by what
its first records hold). A file named on the command line is checked whatever it is.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from citelens.config.exclude import Exclusion
from citelens.config.globs import PathGlobs
from citelens.files.error import FileError
from citelens.files.kind import stat_of
from citelens.files.read import STDIN
from citelens.session.gitignore import GitIgnores
from citelens.source.file_kind import MARKER_BYTES, may_hold_reports

if TYPE_CHECKING:
    from citelens.config.settings import Settings
    from citelens.session.workspace import Workspace

#: file names that are runs besides the `files` globs
RUN_SUFFIXES = (".jsonl", ".json")
#: a folder search stops here (the editor's workspace scan and the CLI alike)
MAX_FILES = 5000


@dataclass(frozen=True)
class Skipped:
    """A file that looked like a run by its name and is not one, and why."""

    path: Path
    reason: str


@dataclass
class RunFiles:
    """The files to check, in order; the paths that could not be used; the skipped ones."""

    paths: list[str] = field(default_factory=list)
    problems: list[FileError] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


class RunFinder:
    """Decides, file by file, what is a run, with the workspace's settings of each file."""

    def __init__(self, workspace: Workspace, *, respect_gitignore: bool = True, top: Path | None = None):
        self.workspace = workspace
        self.respect_gitignore = respect_gitignore
        self._ignores: dict[Path, GitIgnores] = {}
        self._top = top

    # --- one file ---------------------------------------------------------------------
    def not_a_run(self, path: Path, head: str | None = None, *, named: bool = False) -> str | None:
        """Why `path` is not a run (None: it is one). `head`: the start of its text when
        the caller has it (an open document); `named`: the user named this very file."""
        path = path.absolute()
        try:
            settings = self.workspace.settings_for(path)
        except Exception:  # a broken project file: shown on the runs, so they stay runs
            return None
        if named:
            return None
        if not self.name_matches(path, settings):
            return "not a run file name (*.jsonl, *.json or the `files` globs)"
        why = self.excluded(path)
        if why is not None:
            return why
        why = settings_input(path, settings)
        if why is not None:
            return why
        return content_problem(path, head)

    def name_matches(self, path: Path, settings: Settings) -> bool:
        if path.name.lower().endswith(RUN_SUFFIXES):
            return True
        if not settings.files:
            return False
        if settings.source is not None:
            return PathGlobs(settings.files, settings.source.parent).matches(path)
        return any(path.match(g) for g in settings.files)

    def excluded(self, path: Path, *, is_dir: bool = False) -> str | None:
        """Why `path` (a file, or a folder with `is_dir`) is excluded; None if it is not."""
        exclusion = self.exclusion_for(path)
        pattern = exclusion.globs().pattern_for(path, is_dir=is_dir)
        if pattern is not None:
            where = self._project_name(path)
            return f"excluded by {pattern!r} ({where})"
        if self.respect_gitignore and exclusion.respect_gitignore:
            hit = self._gitignores(path).pattern_for(path, is_dir=is_dir)
            if hit is not None:
                return f"ignored by {hit[1]!r} in {hit[0]} (--no-respect-gitignore to check it)"
        return None

    def exclusion_for(self, path: Path) -> Exclusion:
        try:
            project = self.workspace.project_for(path.parent)
        except Exception:  # a broken project file: the defaults, its runs show the problem
            project = None
        if project is not None and project.exclusion is not None:
            return project.exclusion
        return Exclusion(self._top or path.parent)

    def _project_name(self, path: Path) -> str:
        project = self.workspace.project_for(path.parent)
        return str(project.path) if project is not None else "the default exclusions"

    def _gitignores(self, path: Path) -> GitIgnores:
        top = self._top or path.parent
        if top not in self._ignores:
            self._ignores[top] = GitIgnores(top)
        return self._ignores[top]

    # --- many files -------------------------------------------------------------------
    def find(self, named: list[str]) -> RunFiles:
        """The runs among the named paths: a file is kept as given, a folder is searched
        (its sub-folders too); each file once, under the name it was first given."""
        out = RunFiles()
        seen: set[tuple[int, int] | str] = set()

        def add(path: str, st: os.stat_result | None) -> None:
            key: tuple[int, int] | str = (st.st_dev, st.st_ino) if st is not None else path
            if key not in seen:
                seen.add(key)
                out.paths.append(path)

        for item in named:
            if item == STDIN:
                add(STDIN, None)
                continue
            try:
                st = stat_of(item)
            except FileError as exc:
                out.problems.append(exc)
                continue
            if st is None:
                out.problems.append(FileError(item, "no such file or directory"))
            elif stat.S_ISDIR(st.st_mode):
                self._search(item, out, add)
            else:
                add(item, st)  # reading it says what is wrong with a device or a socket
        return out

    def _search(self, folder: str, out: RunFiles, add: object) -> None:
        before = len(out.paths)
        finder = RunFinder(
            self.workspace, respect_gitignore=self.respect_gitignore, top=Path(folder).absolute()
        )
        for shown, _path, st in finder.walk(folder, out):
            add(shown, st)  # type: ignore[operator]
            if len(out.paths) >= MAX_FILES:
                break
        if len(out.paths) == before:
            skipped = [s for s in out.skipped if s.path.is_relative_to(Path(folder).absolute())]
            extra = (
                f" ({len(skipped)} skipped: {skipped[0].path.name} is {skipped[0].reason})" if skipped else ""
            )
            out.problems.append(FileError(folder, f"the directory holds no run files{extra}"))

    def walk(self, folder: str, out: RunFiles) -> list[tuple[str, Path, os.stat_result]]:
        """The runs under `folder`, sorted; what was skipped goes to `out.skipped`."""
        found: list[tuple[str, Path, os.stat_result]] = []
        for root, dirs, names in os.walk(folder):
            here = Path(root).absolute()
            dirs[:] = sorted(d for d in dirs if self.excluded(here / d, is_dir=True) is None)
            for name in sorted(names):
                shown = os.path.join(root, name)
                path = here / name
                try:
                    st = stat_of(shown)
                except FileError as exc:
                    out.problems.append(exc)
                    continue
                if st is None or stat.S_ISDIR(st.st_mode):
                    continue
                why = self.not_a_run(path)
                if why is None:
                    found.append((shown, path, st))
                    if len(found) >= MAX_FILES:
                        return found
                elif not why.startswith("not a run file name"):
                    out.skipped.append(Skipped(path, why))
        return found


def settings_input(path: Path, settings: Settings) -> str | None:
    """Why the settings make `path` an input rather than a run: it is their topics file,
    inside one of their corpora, or their spec file."""
    here = path.resolve()
    if settings.topics is not None and Path(settings.topics).resolve() == here:
        return f"the topics file ({settings.origin('topics')})"
    base = settings.source.parent if settings.source is not None else None
    for corpus in settings.corpora:
        location = corpus.partition(";")[0].removeprefix("index:")
        if "://" in location or location.startswith("irds:"):
            continue
        where = Path(location).expanduser()
        if not where.is_absolute() and base is not None:
            where = base / where
        where = where.resolve()
        if where == here or where in here.parents:
            return f"a corpus named in corpora ({settings.origin('corpora')})"
    spec = settings.spec
    if spec is not None and not _is_builtin(spec) and Path(spec.partition("#")[0]).resolve() == here:
        return f"the spec file ({settings.origin('spec')})"
    return None


def content_problem(path: Path, head: str | None = None) -> str | None:
    """Why the content of `path` is not reports (None: it is, or nothing tells)."""
    from citelens.session.record_kind import record_kind

    if head is None:
        try:
            with path.open(encoding="utf-8", errors="replace") as f:
                head = f.read(MARKER_BYTES)
        except OSError:
            return None  # checking it says what is wrong
    kind = record_kind(head)
    if kind.kind == "unknown" and path.suffix.lower() == ".json" and not may_hold_reports(head):
        return "a .json file without reports (no 'answer' or 'responses' in it)"
    if kind.is_reports:
        return None
    return f"{kind.describe()}, not reports"


def _is_builtin(spec: str) -> bool:
    return spec in _builtin_ids()


@lru_cache(maxsize=1)
def _builtin_ids() -> frozenset[str]:
    from citelens.specs import builtin_specs

    return frozenset(builtin_specs())


def find_runs(workspace: Workspace, named: list[str], *, respect_gitignore: bool = True) -> RunFiles:
    """The run files of the named paths (files as given, folders searched)."""
    return RunFinder(workspace, respect_gitignore=respect_gitignore).find(named)


def is_run(workspace: Workspace, path: Path, head: str | None = None, *, top: Path | None = None) -> bool:
    """Whether an editor's document is a run (for the diagnostics of open files); `top`:
    the workspace folder holding it (where the default exclusions start). Opening a file
    is naming it, as far as `.gitignore` goes: generated runs are often ignored, and an
    open run without diagnostics would read as a clean one. `exclude` still applies."""
    return RunFinder(workspace, top=top, respect_gitignore=False).not_a_run(path, head) is None
