"""Totals over a check run: what the summary line and the JSON `summary` report."""

from __future__ import annotations

from dataclasses import dataclass

from citelens.check.result import FileResult


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    reports: int
    errors: int
    warnings: int
    infos: int = 0

    @classmethod
    def of(cls, results: list[FileResult]) -> Summary:
        return cls(
            files=len(results),
            reports=sum(r.reports for r in results),
            errors=sum(r.count("error") for r in results),
            warnings=sum(r.count("warning") for r in results),
            infos=sum(r.count("info") for r in results),
        )


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def summary_line(summary: Summary) -> str:
    """`3 errors, 2 warnings in 1 file (12 reports)`; infos only when there are some."""
    counts = [plural(summary.errors, "error"), plural(summary.warnings, "warning")]
    if summary.infos:
        counts.append(plural(summary.infos, "info"))
    return f"{', '.join(counts)} in {plural(summary.files, 'file')} ({plural(summary.reports, 'report')})"
