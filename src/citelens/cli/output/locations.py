"""Where a finding is, as people and CI tools count: 1-based lines and columns.

Columns count code points (what the engine's offsets are); ends are exclusive, so a
file-level finding with span 0..1 sits at 1:1-1:2. Every format takes its positions
from here, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citelens.check.finding import Finding
from citelens.check.result import FileResult


@dataclass(frozen=True, slots=True)
class Location:
    line: int
    column: int
    end_line: int
    end_column: int  # exclusive


@dataclass(frozen=True, slots=True)
class LocatedFinding:
    path: str
    finding: Finding
    location: Location


def locate(result: FileResult, finding: Finding) -> Location:
    return locate_span(result, finding.start, finding.end)


def locate_span(result: FileResult, start: int, end: int) -> Location:
    end = max(end, start + 1)  # never an empty range
    line, col = result.line_index.position(start)
    end_line, end_col = result.line_index.position(end)
    if (end_line, end_col) <= (line, col):  # span past the end of an empty/short text
        end_line, end_col = line, col + 1
    return Location(line + 1, col + 1, end_line + 1, end_col + 1)


def related_locations(result: FileResult, finding: Finding) -> list[tuple[str, Location]]:
    """(message, location) of each place the finding relates to (the first report of a
    duplicate topic, the references list an index points into)."""
    return [(r.message, locate_span(result, r.start, r.end)) for r in finding.related]


def located_findings(results: list[FileResult]) -> list[LocatedFinding]:
    """All findings, sorted by path, then position, then code."""
    rows = [LocatedFinding(r.path, f, locate(r, f)) for r in results for f in r.findings]
    rows.sort(
        key=lambda row: (row.path, row.finding.start, row.finding.end, row.finding.code, row.finding.message)
    )
    return rows


def repo_relative(path: str, base: Path | None = None) -> str:
    """`path` relative to `base` (default: the working directory, the repository root
    in CI) with forward slashes; a path outside `base` stays absolute."""
    candidate = Path(path)
    if candidate.is_absolute():
        base = (base or Path.cwd()).absolute()
        try:
            candidate = candidate.relative_to(base)
        except ValueError:
            return candidate.as_posix()
    return candidate.as_posix()
