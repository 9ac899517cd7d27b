"""`citelens check --fix/--diff`: apply the offered fixes, or show them as a diff."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import TextIO

from citelens.check.result import FileResult
from citelens.cli.files import write_atomic
from citelens.session.workspace import Workspace
from citelens.source.document import decode

_BOM = b"\xef\xbb\xbf"


def apply_fixes(
    results: list[FileResult], workspace: Workspace, *, write: bool, unsafe: bool, stream: TextIO
) -> list[FileResult]:
    """Fix each checked file (`OpenDocument.fix_all` with its settings); return what is left."""
    out: list[FileResult] = []
    for result in results:
        data = Path(result.path).read_bytes()
        text, problems = decode(data)
        if problems:
            print(
                f"{result.path}: not fixed: the file is not valid UTF-8 (fixing it would lose bytes)",
                file=sys.stderr,
            )
            out.append(result)
            continue
        outcome = workspace.open(Path(result.path), text).fix_all(unsafe=unsafe)
        workspace.close(Path(result.path))
        outcome.result.path = result.path  # as the user named it
        if not outcome.changed:
            out.append(outcome.result)
            continue
        if write:
            write_atomic(result.path, (_BOM if data.startswith(_BOM) else b"") + outcome.text.encode("utf-8"))
            print(f"{result.path}: applied {len(outcome.applied)} fix(es)", file=sys.stderr)
        else:
            stream.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    outcome.text.splitlines(keepends=True),
                    fromfile=f"a/{result.path}",
                    tofile=f"b/{result.path}",
                )
            )
        out.append(outcome.result)
    return out
