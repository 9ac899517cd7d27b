"""The machine format: exactly one JSON object, `{"findings": [...], "summary": {...}}`."""

from __future__ import annotations

from typing import Any

from citelens.check.result import FileResult
from citelens.cli.output.locations import located_findings, related_locations
from citelens.cli.output.summary import Summary
from citelens.source.json_text import json_dumps


def json_document(results: list[FileResult], summary: Summary | None = None) -> dict[str, Any]:
    """Findings with 1-based, code-point, end-exclusive positions (and `related` places,
    where a rule names them), and the totals."""
    summary = summary or Summary.of(results)
    by_path = {r.path: r for r in results}
    findings = []
    for row in located_findings(results):
        entry: dict[str, Any] = {
            "path": row.path,
            "line": row.location.line,
            "column": row.location.column,
            "end_line": row.location.end_line,
            "end_column": row.location.end_column,
            "code": row.finding.code,
            "severity": row.finding.severity,
            "message": row.finding.message,
            "topic_id": row.finding.topic_id,
        }
        related = related_locations(by_path[row.path], row.finding) if row.finding.related else []
        if related:  # only where a rule names one, so other findings keep their shape
            entry["related"] = [
                {
                    "message": message,
                    "line": loc.line,
                    "column": loc.column,
                    "end_line": loc.end_line,
                    "end_column": loc.end_column,
                }
                for message, loc in related
            ]
        findings.append(entry)
    document: dict[str, Any] = {"findings": findings, "summary": summary_document(results, summary)}
    if any(r.support is not None for r in results):  # `check --support`: verdicts with evidence offsets
        from citelens.support.summary import file_document

        document["support"] = [file_document(r.path, r.support) for r in results if r.support is not None]
    return document


def summary_document(results: list[FileResult], summary: Summary | None = None) -> dict[str, int]:
    """The totals as the JSON formats write them: every severity counted."""
    summary = summary or Summary.of(results)
    return {
        "files": summary.files,
        "reports": summary.reports,
        "errors": summary.errors,
        "warnings": summary.warnings,
        "infos": summary.infos,
    }


def render_json(results: list[FileResult], summary: Summary | None = None) -> str:
    return json_dumps(json_document(results, summary), indent=2) + "\n"
