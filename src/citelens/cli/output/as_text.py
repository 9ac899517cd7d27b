"""The human format: `path:line:column: severity[code] message`, then a summary line."""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from operator import attrgetter
from typing import TextIO

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
        starts, size = result.line_index.starts, len(result.line_index.text)
        for f in sorted(result.findings, key=_reading_order):
            offset = f.start  # LineIndex.position, inlined
            if not 0 <= offset <= size:
                offset = min(max(offset, 0), size)
            line = bisect_right(starts, offset) - 1
            col = offset - starts[line]
            message = f.message
            if "\n" in message or "\r" in message:
                message = _BREAKS.sub(" ", message)
            severity: str = f.severity
            code = f.code
            if color:
                severity, code = _style(severity, severity, color), _style(code, "code", color)
            lines.append(f"{path}:{line + 1}:{col + 1}: {severity}[{code}] {message}")
    lines.append(summary_line(summary or Summary.of(results)))
    return "\n".join(lines) + "\n"


_reading_order = attrgetter("start", "end", "code", "message")


def write_text(results: list[FileResult], stream: TextIO, summary: Summary | None = None) -> None:
    stream.write(render_text(results, summary, color=use_color(stream)))
