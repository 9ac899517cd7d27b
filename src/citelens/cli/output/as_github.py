"""GitHub Actions workflow commands: each finding becomes an annotation on the PR diff.

`::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE`. Escaping follows
the runner's rules (actions/toolkit `command.ts`): data escapes `%`, CR and LF; property
values also escape `:` and `,`.
"""

from __future__ import annotations

from pathlib import Path

from citelens.check.result import FileResult
from citelens.cli.output.locations import located_findings, repo_relative

#: finding severity -> workflow command
COMMANDS: dict[str, str] = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(results: list[FileResult], *, base: Path | None = None) -> str:
    lines = []
    for row in located_findings(results):
        f, loc = row.finding, row.location
        props = {
            "file": repo_relative(row.path, base),
            "line": loc.line,
            "col": loc.column,
            "endLine": loc.end_line,
            "endColumn": loc.end_column,
            "title": f"citelens {f.code}",
        }
        joined = ",".join(f"{key}={escape_property(str(value))}" for key, value in props.items())
        lines.append(f"::{COMMANDS[f.severity]} {joined}::{escape_data(f.message)}")
    return "".join(line + "\n" for line in lines)
