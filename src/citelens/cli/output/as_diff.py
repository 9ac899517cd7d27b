r"""`--diff`: fixes as a unified diff that `patch -p1` applies to the file as it is on disk.

The diff is made of the file's own lines, split at `\n` only (as `patch` reads them), so a
UTF-8 byte-order mark stays on line 1, `\r\n` and lone `\r` stay where they are, and a
U+2028 inside a string is not a line break. A last line without a newline is marked
`\ No newline at end of file`, as `diff -u` does.
"""

from __future__ import annotations

import difflib
import re

_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")
_NO_NEWLINE = "\\ No newline at end of file\n"


def _lines(text: str) -> list[str]:
    return _LINES.findall(text)


def render_diff(old: str, new: str, path: str) -> str:
    """The unified diff from `old` to `new` (texts as on disk, BOM included)."""
    out = []
    for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=f"a/{path}", tofile=f"b/{path}"):
        out.append(line if line.endswith("\n") else line + "\n" + _NO_NEWLINE)
    return "".join(out)
