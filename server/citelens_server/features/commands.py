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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

from citelens_server.runtime.progress import Progress
from citelens_server.runtime.server import CiteLensServer, uri_path

log = logging.getLogger("citelens_server")

CHECK_WORKSPACE = "citelens.checkWorkspace"
CONVERT_FILE = "citelens.convertFile"
SET_SPEC = "citelens.setSpec"


def run_files(ls: CiteLensServer) -> list[Path]:
    """The run files under the workspace folders, as `citelens check FOLDER` finds them
    (the engine's answer: runtime/run_detection.py)."""
    from citelens_server.runtime.run_detection import workspace_runs

    return workspace_runs(ls)


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
    from citelens.session.run_summary import summary_line

    summary["summary"] = summary_line(summary["files"])
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
    from citelens.session.run_summary import support_figures
    from citelens_server.runtime.workspace_runs import disk_check

    uri = path.as_uri()
    about = _run_settings(ls, path)
    if uri in ls.open_reports:
        await ls.checks.result(uri)  # opened and checked in a worker
        doc = ls.document(uri)
        if doc is not None and doc.checked:
            result = doc.result
            return {
                "uri": uri,
                **about,
                "errors": result.count("error"),
                "warnings": result.count("warning"),
                "reports": result.reports,
                **support_figures(result),
            }
    check = checked[uri] = await disk_check(ls, path)
    if check.error is not None:
        return {"uri": uri, **about, "error": check.error}
    return {"uri": uri, **about, "errors": check.errors, "warnings": check.warnings, **check.about}


def _run_settings(ls: CiteLensServer, path: Path) -> dict[str, Any]:
    try:
        return {"spec": ls.session.settings_for(path).spec}
    except Exception:  # shown as the run's error
        return {"spec": None}


async def _show_workspace(ls: CiteLensServer, checked: dict[str, Any]) -> None:
    """Pull clients that ask for workspace diagnostics get them from there (woken now);
    the others get the findings of the files they have not opened pushed."""
    from citelens_server.runtime.workspace_runs import push_workspace

    if ls.pull and ls.runs.pulled:
        ls.runs.wake()
    else:
        await push_workspace(ls, checked)


def spec_edit(ls: CiteLensServer, path: Path, spec: str) -> types.WorkspaceEdit:
    """Write `spec = "<id>"` for the runs of `path`'s folder into the project file governing
    it, in place (made in the workspace folder when there is none)."""
    from citelens_server.features.spec_settings import as_workspace_edit, setting_edit_for

    return as_workspace_edit(setting_edit_for(ls, path, "spec", spec))
