"""`citelens check --fix/--diff`: apply the offered fixes, or show them as a diff."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from citelens.check.result import FileResult
from citelens.cli.output.as_diff import render_diff
from citelens.cli.output.as_token_diff import render_token_diff
from citelens.files import FileError, write_file
from citelens.files.snapshot import Snapshot
from citelens.session import Workspace
from citelens.source.run_text import decode

_BOM = b"\xef\xbb\xbf"


def apply_fixes(
    result: FileResult,
    data: bytes,
    workspace: Workspace,
    *,
    write: bool,
    unsafe: bool,
    stream: TextIO,
    diff_format: str = "unified",
) -> FileResult:
    """Fix one checked file (`OpenDocument.fix_all` with its settings) from the bytes it
    was checked from; write it back, or print the diff (`diff_format` unified or tokens). Returns the findings left (the
    original ones when nothing was written). Raises `FileError` when the file cannot be
    written; it is then unchanged."""
    try:
        read_as = Snapshot.of(result.path, data) if write else None
    except OSError as exc:
        raise FileError.of(result.path, exc, "cannot fix it") from None
    text, problems = decode(data)
    if problems:
        print(
            f"{result.path}: not fixed: the file is not valid UTF-8 (fixing it would lose bytes)",
            file=sys.stderr,
        )
        return result
    outcome = workspace.open(Path(result.path), text).fix_all(unsafe=unsafe)
    workspace.close(Path(result.path))
    outcome.result.path = result.path  # as the user named it
    if not outcome.changed:
        return outcome.result
    bom = "\ufeff" if data.startswith(_BOM) else ""
    if write:
        # refused if the file is no longer the bytes these fixes were computed from
        write_file(result.path, (bom + outcome.text).encode("utf-8"), unchanged_since=read_as)
        print(f"{result.path}: applied {len(outcome.applied)} fix(es)", file=sys.stderr)
    elif diff_format == "tokens":
        from citelens.cli.output.as_text import use_color

        stream.write(render_token_diff(text, outcome.text, result.path, color=use_color(stream)))
    else:
        stream.write(render_diff(bom + text, bom + outcome.text, result.path))
    return outcome.result
