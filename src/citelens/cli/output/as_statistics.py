"""`--statistics`: how often each code (at each severity) occurred, most frequent first,
and how many of those `--fix` (or `--fix --unsafe-fixes`) would repair, as ruff marks them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from citelens.check.result import FileResult

RuleSummary = Callable[[str], str] | Mapping[str, str]

#: the marks of the fixable column: some findings have a safe fix / only unsafe fixes
SAFE_MARK, UNSAFE_MARK, NO_MARK = "[*]", "[-]", "   "


@dataclass(frozen=True, slots=True)
class CodeCount:
    code: str
    severity: str
    count: int
    fixable: int = 0  # findings with a safe fix (`--fix`)
    unsafe_fixable: int = 0  # findings whose fix needs `--unsafe-fixes`

    @property
    def mark(self) -> str:
        return SAFE_MARK if self.fixable else UNSAFE_MARK if self.unsafe_fixable else NO_MARK


def code_counts(results: list[FileResult]) -> list[CodeCount]:
    """Counts per (code, severity), by count descending, then code, then severity. The
    fixable counts are those of the findings that carry a fix (a checker made with
    `fixes=True` attaches them; otherwise they are 0)."""
    counter = Counter((f.code, f.severity) for r in results for f in r.findings)
    safe = Counter(
        (f.code, f.severity)
        for r in results
        for f in r.findings
        if f.fix is not None and f.fix.applicability == "safe"
    )
    unsafe = Counter(
        (f.code, f.severity)
        for r in results
        for f in r.findings
        if f.fix is not None and f.fix.applicability != "safe"
    )
    rows = [CodeCount(code, sev, n, safe[code, sev], unsafe[code, sev]) for (code, sev), n in counter.items()]
    rows.sort(key=lambda row: (-row.count, row.code, row.severity))
    return rows


def summary_of(rule_summary: RuleSummary | None, code: str) -> str:
    """A rule's one-line summary from the registry's callable or dict; the code otherwise."""
    if rule_summary is None:
        return code
    if callable(rule_summary):
        return rule_summary(code) or code
    return rule_summary.get(code, code)


def fixable_line(rows: list[CodeCount]) -> str:
    """The footnote of the marks ("" when nothing is fixable)."""
    safe = sum(row.fixable for row in rows)
    unsafe = sum(row.unsafe_fixable for row in rows)
    parts = []
    if safe:
        parts.append(f"{SAFE_MARK} {safe} fixable with --fix")
    if unsafe:
        parts.append(f"{UNSAFE_MARK} {unsafe} more with --fix --unsafe-fixes")
    return "; ".join(parts)


def render_statistics(results: list[FileResult], rule_summary: RuleSummary | None = None) -> str:
    """Aligned columns: count, severity, code, the fixable mark (only when some finding
    has a fix) and (when a registry is given) its summary; then the marks' footnote."""
    rows = code_counts(results)
    if not rows:
        return ""
    width = max(len(str(row.count)) for row in rows)
    code_width = max(len(row.code) for row in rows)
    marked = any(row.fixable or row.unsafe_fixable for row in rows)
    lines = []
    for row in rows:
        line = f"{row.count:>{width}}  {row.severity:<7}  {row.code:<{code_width}}"
        if marked:
            line += f"  {row.mark}"
        if rule_summary is not None:
            line += f"  {summary_of(rule_summary, row.code)}"
        lines.append(line.rstrip())
    footnote = fixable_line(rows)
    if footnote:
        lines.append(footnote)
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
            "fixable": row.fixable,
            "unsafe_fixable": row.unsafe_fixable,
            "summary": summary_of(rule_summary, row.code),
        }
        for row in code_counts(results)
    ]
    return json_dumps({"statistics": rows, "summary": summary_document(results)}, indent=2) + "\n"
