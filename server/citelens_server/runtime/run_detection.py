"""Which files the server treats as runs: the engine's answer (`citelens.session.run_files`),
so the Problems panel, the workspace diagnostics and "Check All Runs" hold exactly the
runs `citelens check .` checks, and nothing on topics, corpus or excluded files."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from pygls.uris import to_fs_path

log = logging.getLogger("citelens_server")

#: a workspace scan stops here
MAX_FILES = 5000
#: the start of an open document that tells what its records are
HEAD_CHARS = 65536
#: untitled documents (no path): checked when their name says JSON
REPORT_SUFFIXES = (".jsonl", ".json")


def folder_of(ls: Any, path: Path) -> Path | None:
    """The workspace folder holding `path` (the innermost), or None."""
    best = None
    for folder in ls.folders:
        if path.is_relative_to(folder) and (best is None or len(folder.parts) > len(best.parts)):
            best = folder
    return best


def workspace_runs(ls: Any) -> list[Path]:
    """The runs under the workspace folders, as `citelens check FOLDER` finds them."""
    from citelens.session.run_files import RunFiles, RunFinder

    found: list[Path] = []
    seen: set[Path] = set()
    for folder in ls.folders:
        finder = RunFinder(ls.session, top=folder)
        skipped = RunFiles()
        for _shown, path, _st in finder.walk(str(folder), skipped):
            if path not in seen:
                seen.add(path)
                found.append(path)
                if len(found) >= MAX_FILES:
                    return found
        for item in skipped.skipped:
            log.debug("not a run: %s: %s", item.path, item.reason)
    return found


def is_run_document(ls: Any, uri: str, text: str | None) -> bool:
    """Whether an opened document is a run (its text tells topics and corpus files apart)."""
    fs = to_fs_path(uri) if uri.startswith("file:") else None
    path = Path(fs) if fs else None
    if path is None or ls.session is None:
        return uri.lower().endswith(REPORT_SUFFIXES)
    from citelens.session.run_files import is_run

    try:
        return is_run(
            ls.session, path, text[:HEAD_CHARS] if text is not None else None, top=folder_of(ls, path)
        )
    except Exception:  # never lose a run to a detection problem
        log.exception("is %s a run?", path)
        return path.name.lower().endswith(REPORT_SUFFIXES)
