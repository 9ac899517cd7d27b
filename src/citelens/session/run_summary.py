"""What "Check All Runs" says per run and in all: the support shares of a checked file
(none when nothing was judged) and the summary line in `citelens check`'s words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from citelens.check.result import FileResult


def support_figures(result: FileResult) -> dict[str, Any]:
    """`{support: shares | None, notJudged: why | None}`, or {} with support off."""
    from citelens.support.summary import not_judged, run_totals

    support = getattr(result, "support", None)
    if support is None:
        return {}
    totals = run_totals(support.figures)
    why = not_judged(totals["counts"])
    return {"support": None if why else totals["shares"], "notJudged": why}


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary_line(files: Iterable[Mapping[str, Any]]) -> str:
    """`1 error, 0 warnings in 2 files (4 reports)` over the runs' counts."""
    listed = list(files)
    errors = sum(f.get("errors", 0) for f in listed)
    warnings = sum(f.get("warnings", 0) for f in listed)
    reports = sum(f.get("reports", 0) for f in listed)
    return (
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')} in {plural(len(listed), 'file')}"
        f" ({plural(reports, 'report')})"
    )
