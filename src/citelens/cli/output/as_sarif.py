"""SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run; `tool.driver.rules` lists each code that occurs; each result points at its rule
by `ruleId` and `ruleIndex`, and each rule carries `helpUri`, the link to its
documentation (`citelens.check.catalog.docs_uri` unless the caller gives another).
Regions use 1-based lines and columns counted in Unicode
code points (declared with `run.columnKind = "unicodeCodePoints"`; SARIF's default would
be UTF-16 code units), with `endColumn` exclusive, as SARIF defines it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from citelens import __version__
from citelens.check.catalog import docs_uri
from citelens.check.result import FileResult
from citelens.cli.output.as_statistics import RuleSummary, summary_of
from citelens.cli.output.locations import Location, located_findings, related_locations, repo_relative
from citelens.source.json_text import json_dumps

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://pypi.org/project/citelens/"

#: finding severity -> SARIF result level
LEVELS: dict[str, str] = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str, base: Path | None = None) -> str:
    """A URI reference: repository-relative with `/`, percent-encoded; absolute paths
    outside the repository become `file://` URIs."""
    relative = repo_relative(path, base)
    if Path(relative).is_absolute():
        return Path(relative).as_uri()
    return quote(relative, safe="/")


def sarif_log(
    results: list[FileResult],
    *,
    rule_summary: RuleSummary | None = None,
    rule_help_uri: Callable[[str], str | None] | None = None,
    base: Path | None = None,
    version: str = __version__,
    information_uri: str = INFORMATION_URI,
) -> dict[str, Any]:
    rows = located_findings(results)
    codes = sorted({row.finding.code for row in rows})
    rule_index = {code: i for i, code in enumerate(codes)}
    help_uri_of = rule_help_uri if rule_help_uri is not None else docs_uri
    rules = []
    for code in codes:
        rule: dict[str, Any] = {"id": code, "shortDescription": {"text": summary_of(rule_summary, code)}}
        help_uri = help_uri_of(code)
        if help_uri:
            rule["helpUri"] = help_uri
        rules.append(rule)
    by_path = {r.path: r for r in results}
    sarif_results = []
    for row in rows:
        f, loc = row.finding, row.location
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": rule_index[f.code],
            "level": LEVELS[f.severity],
            "message": {"text": f.message or f.code},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": artifact_uri(row.path, base)},
                        "region": _region(loc),
                    }
                }
            ],
        }
        related = related_locations(by_path[row.path], f) if f.related else []
        if related:
            result["relatedLocations"] = [
                {
                    "id": n,
                    "message": {"text": message},
                    "physicalLocation": {
                        "artifactLocation": {"uri": artifact_uri(row.path, base)},
                        "region": _region(where),
                    },
                }
                for n, (message, where) in enumerate(related)
            ]
        if f.topic_id is not None:
            result["properties"] = {"topic_id": f.topic_id}
        sarif_results.append(result)
    driver = {"name": "citelens", "version": version, "informationUri": information_uri, "rules": rules}
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": sarif_results}],
    }


def _region(loc: Location) -> dict[str, int]:
    return {
        "startLine": loc.line,
        "startColumn": loc.column,
        "endLine": loc.end_line,
        "endColumn": loc.end_column,
    }


def render_sarif(results: list[FileResult], **options: Any) -> str:
    """`sarif_log` as indented JSON; `options` as for `sarif_log`."""
    return json_dumps(sarif_log(results, **options), indent=2) + "\n"
