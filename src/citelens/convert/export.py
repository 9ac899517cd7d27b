"""`write_submission_output`: reports written as a track's submission file."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from citelens.convert.wire import report_to_submission_dict
from citelens.files import write_file
from citelens.source.json_text import json_dumps

if TYPE_CHECKING:
    from citelens.models.report import Report
    from citelens.specs import TrackSpec


def _line(value: object) -> str:
    return json_dumps(value, separators=(",", ":")) + "\n"


def write_submission_output(reports: Iterable[Report], path: str | Path, spec: TrackSpec | str) -> int:
    """Write `reports`, each converted to `spec`'s wire shape, as JSON lines at `path`
    (parent folders are created; the file is replaced atomically). Returns the count."""
    reports = list(reports)
    body = "".join(_line(report_to_submission_dict(report, spec)) for report in reports)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_file(target, body.encode("utf-8"))
    return len(reports)
