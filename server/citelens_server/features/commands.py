"""Workspace commands: check every run in the workspace (with progress and cancellation),
convert a file, set the track spec (showing a cited document: cited_documents.py;
indexing a corpus: indexing.py).

Long work runs cooperatively on the event loop, one file at a time with a yield between
files, so hovers and diagnostics of open files are answered meanwhile; the client can
cancel through the progress token or by cancelling the request.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

from citelens_server.runtime.progress import Progress
from citelens_server.runtime.server import REPORT_SUFFIXES, CiteLensServer, uri_path

log = logging.getLogger("citelens_server")

CHECK_WORKSPACE = "citelens.checkWorkspace"
CONVERT_FILE = "citelens.convertFile"
SET_SPEC = "citelens.setSpec"
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}
MAX_FILES = 5000


def run_files(ls: CiteLensServer) -> list[Path]:
    """The run files under the workspace folders: `*.jsonl`, `*.json` and the `files` globs
    (skipped directories are not walked into)."""
    found: list[Path] = []
    for folder in ls.folders:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(names):
                path = Path(root) / name
                if name.lower().endswith(REPORT_SUFFIXES) or ls._matches_configured_globs(path):
                    if _is_settings_input(ls, path):
                        continue  # the topics file or a corpus: read by the checks, not a run
                    found.append(path)
                    if len(found) >= MAX_FILES:
                        return found
    return found


def _is_settings_input(ls: CiteLensServer, path: Path) -> bool:
    try:
        settings = ls.session.settings_for(path)
    except Exception:  # a broken project file: its runs are still listed (and show the problem)
        return False
    here = path.resolve()
    if settings.topics is not None and Path(settings.topics).resolve() == here:
        return True
    for corpus in settings.corpora or ():
        where = Path(corpus)
        if where.is_absolute() and (where.resolve() == here or where.resolve() in here.parents):
            return True
    return False


async def check_workspace(ls: CiteLensServer, *args: Any) -> dict[str, Any]:
    files = run_files(ls)
    progress = Progress(ls, "check")
    await progress.begin("Checking the workspace's runs")
    summary: dict[str, Any] = {"files": [], "cancelled": False}
    checked: dict[str, Any] = {}
    try:
        for n, path in enumerate(files):
            if progress.cancelled():
                summary["cancelled"] = True
                break
            summary["files"].append(await _check_one(ls, path, checked))
            progress.report(
                types.WorkDoneProgressReport(
                    message=f"{n + 1}/{len(files)} {path.name}",
                    percentage=int(100 * (n + 1) / len(files)),
                )
            )
            await asyncio.sleep(0)  # let other requests through between files
    finally:
        progress.end("cancelled" if summary["cancelled"] else f"{len(summary['files'])} file(s) checked")
    if not summary["cancelled"]:
        await _show_workspace(ls, checked)
    return summary


async def convert_file(ls: CiteLensServer, uri: str, target: str, *rest: Any) -> dict[str, Any]:
    doc = ls.document(uri)
    if doc is None:
        return {"applied": False, "reason": "the file is not open"}
    result = doc.convert_edits(target)
    if result.broken:
        return {"applied": False, "reason": f"{len(result.broken)} report(s) cannot be converted"}
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(
            edit=ls.workspace_edit(doc, result.edits), label=f"Convert to {target}"
        )
    )
    return {"applied": bool(answer.applied), "lost": [n.message for n in result.notes]}


async def set_spec(ls: CiteLensServer, uri: str, spec: str, *rest: Any) -> dict[str, Any]:
    path = uri_path(uri)
    if path is None:
        return {"applied": False, "reason": "not a file"}
    edit = spec_edit(ls, path, spec)
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=f"Set the track spec to {spec}")
    )
    return {"applied": bool(answer.applied)}


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (CHECK_WORKSPACE, check_workspace),
    (CONVERT_FILE, convert_file),
    (SET_SPEC, set_spec),
]


async def _check_one(ls: CiteLensServer, path: Path, checked: dict[str, Any]) -> dict[str, Any]:
    """One run file checked (in a worker; an open file as the editor holds it)."""
    from citelens_server.runtime.workspace_runs import disk_check

    uri = path.as_uri()
    if uri in ls.open_reports:
        await ls.checks.result(uri)  # opened and checked in a worker
        doc = ls.document(uri)
        if doc is not None and doc.checked:
            result = doc.result
            return {"uri": uri, "errors": result.count("error"), "warnings": result.count("warning")}
    check = checked[uri] = await disk_check(ls, path)
    if check.error is not None:
        return {"uri": uri, "error": check.error}
    return {"uri": uri, "errors": check.errors, "warnings": check.warnings}


async def _show_workspace(ls: CiteLensServer, checked: dict[str, Any]) -> None:
    """Pull clients that ask for workspace diagnostics get them from there (woken now);
    the others get the findings of the files they have not opened pushed."""
    from citelens_server.runtime.workspace_runs import push_workspace

    if ls.pull and ls.runs.pulled:
        ls.runs.wake()
    else:
        await push_workspace(ls, checked)


def spec_edit(ls: CiteLensServer, path: Path, spec: str) -> types.WorkspaceEdit:
    """Write `spec = "<id>"` into the project file governing `path` (made in the workspace
    folder, or next to the file, when there is none)."""
    settings = ls.session.settings_for(path)
    config = getattr(settings, "source", None)
    line = f'spec = "{spec}"\n'
    if config is not None and Path(config).name == "citelens.toml" and Path(config).is_file():
        text = Path(config).read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for i, existing in enumerate(lines):
            if existing.split("=", 1)[0].strip() == "spec":
                rng = types.Range(types.Position(i, 0), types.Position(i + 1, 0))
                break
        else:
            rng = types.Range(types.Position(0, 0), types.Position(0, 0))
        return types.WorkspaceEdit(
            changes={Path(config).as_uri(): [types.TextEdit(range=rng, new_text=line)]}
        )
    folder = next((f for f in ls.folders if path.is_relative_to(f)), path.parent)
    target = (folder / "citelens.toml").as_uri()
    create = types.CreateFile(uri=target, options=types.CreateFileOptions(ignore_if_exists=True))
    insert = types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=target, version=None),
        edits=[types.TextEdit(range=types.Range(types.Position(0, 0), types.Position(0, 0)), new_text=line)],
    )
    return types.WorkspaceEdit(document_changes=[create, insert])
