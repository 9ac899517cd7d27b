"""`load_runs_failsave`: every report of every run file in a folder, going on past
whatever cannot be read.

The files are found as autojudge-base finds them (the folder's entries up to three
levels deep, in sorted path order). Unlike the reference, which stops at the first
broken file, a file that cannot be read and a report that does not load are skipped
with a warning naming the file and, for a report, its line and column; every other
report is kept. The split into reports is the checker's tolerant reader, so JSON lines,
a JSON array and one pretty-printed report all load.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from pydantic import ValidationError

from citelens.files import FileError, read_bytes
from citelens.models.report import Report
from citelens.source.run_text import decode, read_source


class RunLoadWarning(UserWarning):
    """A run file, or a report in one, was skipped."""


def _run_files(folder: Path) -> list[Path]:
    """Files one to three levels down, hidden ones left out (as shell globs do)."""
    found = [*folder.glob("*"), *folder.glob("*/*"), *folder.glob("*/*/*")]
    visible = (p for p in found if not any(part.startswith(".") for part in p.relative_to(folder).parts))
    return sorted((p for p in visible if p.is_file()), key=str)


def _reports_of(path: Path) -> list[Report]:
    try:
        data = read_bytes(path)
    except (FileError, OSError) as exc:
        warnings.warn(f"{path}: skipped: {exc}", RunLoadWarning, stacklevel=3)
        return []
    text, problems = decode(data)
    if problems:
        warnings.warn(f"{path}: skipped: the file is not UTF-8 text", RunLoadWarning, stacklevel=3)
        return []
    source = read_source(text)
    where = source.line_index
    reports: list[Report] = []
    for item in source.items:
        item = item.decoded(text)
        line, col = where.position(item.start)
        if item.syntax is not None:
            line, col = where.position(item.syntax.offset)
            reason = f"not valid JSON: {item.syntax.message}"
        else:
            try:
                report = Report.model_validate(item.value)
            except ValidationError as exc:
                reason = f"not a report: {exc.errors()[0]['msg']}"
            else:
                report.path = path.absolute()
                reports.append(report)
                continue
        warnings.warn(f"{path}:{line + 1}:{col + 1}: report skipped: {reason}", RunLoadWarning, stacklevel=3)
    return reports


def load_runs_failsave(path: Path | str) -> list[Report]:
    """The reports of every run file under `path` (a folder), in file order."""
    folder = Path(path).absolute()
    reports: list[Report] = []
    for file in _run_files(folder):
        reports.extend(_reports_of(file))
    return reports
