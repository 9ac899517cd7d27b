"""The human format: `path:line:column: severity[code] message`, then a summary line."""

from __future__ import annotations

import os
import re
from typing import TextIO

from citelens.check.finding import Finding
from citelens.check.result import FileResult
from citelens.cli.output.summary import Summary, summary_line

#: ANSI styles; used only when `use_color` says so
STYLES: dict[str, str] = {
    "path": "\x1b[1m",
    "error": "\x1b[1;31m",
    "warning": "\x1b[1;33m",
    "info": "\x1b[1;36m",
    "code": "\x1b[2m",
    "reset": "\x1b[0m",
}
_BREAKS = re.compile(r"\r\n|\r|\n")


def use_color(stream: TextIO) -> bool:
    """Colour only for a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _style(text: str, style: str, color: bool) -> str:
    return f"{STYLES[style]}{text}{STYLES['reset']}" if color else text


def render_text(results: list[FileResult], summary: Summary | None = None, *, color: bool = False) -> str:
    """One finding a line (a message's own line breaks become spaces), then the summary.

    The same order and positions as `located_findings`, computed leanly: this runs once
    per finding and big runs have tens of thousands of them."""
    lines = []
    for result in sorted(results, key=lambda r: r.path):
        path = _style(result.path, "path", color)
        position = result.line_index.position
        for f in sorted(result.findings, key=_reading_order):
            line, col = position(f.start)
            message = f.message
            if "\n" in message or "\r" in message:
                message = _BREAKS.sub(" ", message)
            lines.append(
                f"{path}:{line + 1}:{col + 1}: {_style(f.severity, f.severity, color)}"
                f"[{_style(f.code, 'code', color)}] {message}"
            )
    lines.append(summary_line(summary or Summary.of(results)))
    return "\n".join(lines) + "\n"


def _reading_order(f: Finding) -> tuple[int, int, str, str]:
    return f.start, f.end, f.code, f.message


def write_text(results: list[FileResult], stream: TextIO, summary: Summary | None = None) -> None:
    stream.write(render_text(results, summary, color=use_color(stream)))
