"""`--statistics`: how often each code (at each severity) occurred, most frequent first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from citelens.check.result import FileResult

RuleSummary = Callable[[str], str] | Mapping[str, str]


@dataclass(frozen=True, slots=True)
class CodeCount:
    code: str
    severity: str
    count: int


def code_counts(results: list[FileResult]) -> list[CodeCount]:
    """Counts per (code, severity), by count descending, then code, then severity."""
    counter = Counter((f.code, f.severity) for r in results for f in r.findings)
    rows = [CodeCount(code, severity, n) for (code, severity), n in counter.items()]
    rows.sort(key=lambda row: (-row.count, row.code, row.severity))
    return rows


def summary_of(rule_summary: RuleSummary | None, code: str) -> str:
    """A rule's one-line summary from the registry's callable or dict; the code otherwise."""
    if rule_summary is None:
        return code
    if callable(rule_summary):
        return rule_summary(code) or code
    return rule_summary.get(code, code)


def render_statistics(results: list[FileResult], rule_summary: RuleSummary | None = None) -> str:
    """Aligned columns: count, severity, code and (when a registry is given) its summary."""
    rows = code_counts(results)
    if not rows:
        return ""
    width = max(len(str(row.count)) for row in rows)
    code_width = max(len(row.code) for row in rows)
    lines = []
    for row in rows:
        line = f"{row.count:>{width}}  {row.severity:<7}  {row.code:<{code_width}}"
        if rule_summary is not None:
            line += f"  {summary_of(rule_summary, row.code)}"
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def render_statistics_json(results: list[FileResult], rule_summary: RuleSummary | None = None) -> str:
    """`--statistics --format json`: one object, the counts and the run's totals."""
    from citelens.cli.output.as_json import summary_document
    from citelens.source.json_text import json_dumps

    rows = [
        {
            "code": row.code,
            "severity": row.severity,
            "count": row.count,
            "summary": summary_of(rule_summary, row.code),
        }
        for row in code_counts(results)
    ]
    return json_dumps({"statistics": rows, "summary": summary_document(results)}, indent=2) + "\n"
