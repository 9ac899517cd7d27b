"""`citelens check` output formats: pure functions from `list[FileResult]` to text.

`OUTPUT_FORMATS` names them for `--format`; `write_output` is the one call the CLI makes.
The formats share their positions (`locations`) and totals (`summary`), so the text,
JSON, GitHub and SARIF views of one run never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

from citelens.check.result import FileResult
from citelens.cli.output.as_github import render_github
from citelens.cli.output.as_json import json_document, render_json
from citelens.cli.output.as_sarif import render_sarif, sarif_log
from citelens.cli.output.as_statistics import (
    CodeCount,
    RuleSummary,
    code_counts,
    render_statistics,
    render_statistics_json,
)
from citelens.cli.output.as_text import render_text, use_color, write_text
from citelens.cli.output.locations import LocatedFinding, Location, locate, located_findings, repo_relative
from citelens.cli.output.summary import Summary, summary_line

OUTPUT_FORMATS: Final[tuple[str, ...]] = ("text", "json", "github", "sarif")

__all__ = [
    "OUTPUT_FORMATS",
    "CodeCount",
    "LocatedFinding",
    "Location",
    "RuleSummary",
    "Summary",
    "code_counts",
    "json_document",
    "locate",
    "located_findings",
    "render_github",
    "render_json",
    "render_sarif",
    "render_statistics",
    "render_statistics_json",
    "render_text",
    "repo_relative",
    "sarif_log",
    "summary_line",
    "use_color",
    "write_output",
    "write_text",
]


def write_output(
    fmt: str,
    results: list[FileResult],
    stream: TextIO,
    *,
    summary: Summary | None = None,
    rule_summary: RuleSummary | None = None,
    rule_help_uri: Callable[[str], str | None] | None = None,
    base: Path | None = None,
) -> None:
    """Write `results` to `stream` in format `fmt` (one of `OUTPUT_FORMATS`)."""
    if fmt == "text":
        write_text(results, stream, summary)
    elif fmt == "json":
        stream.write(render_json(results, summary))
    elif fmt == "github":
        stream.write(render_github(results, base=base))
    elif fmt == "sarif":
        stream.write(render_sarif(results, rule_summary=rule_summary, rule_help_uri=rule_help_uri, base=base))
    else:
        raise ValueError(f"unknown output format {fmt!r}; known: {', '.join(OUTPUT_FORMATS)}")
