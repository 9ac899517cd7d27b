"""Workspace diagnostics: the findings of every run file in the workspace, open or not.

Pull clients get them through `workspace/diagnostic` (registered with the document pull):
one report per run file (the files `citelens.checkWorkspace` checks), each with a
result id naming what it was computed from (an open document's version, or a closed
file's size and modification time) and the settings generation, so a file that did not
change since the client's `previousResultIds` is answered `unchanged`. VS Code asks again
two seconds after every answer; when nothing changed, the request is held until
something does (settings, a saved or watched file, a workspace check), so an idle editor
does not re-scan the workspace every two seconds.

Clients that do not pull the workspace get the findings of files they have not opened
pushed by `citelens.checkWorkspace` (runtime/workspace_runs.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from citelens_server.features.commands import run_files
from citelens_server.features.diagnostics import result_id
from citelens_server.lsp.diagnostics import JsonArray
from citelens_server.lsp.json_text import Json
from citelens_server.runtime.server import CiteLensServer
from citelens_server.runtime.workspace_runs import disk_check, disk_result_id

log = logging.getLogger("citelens_server")

#: how long an unchanged workspace pull is held before the files are looked at again
HOLD_S = 60.0


def _report_files(ls: CiteLensServer, run_files: Callable[[CiteLensServer], list[Path]]) -> list[Path]:
    """The run files (the engine decides: topics, corpus, excluded and `.json` files
    without reports are not runs; runtime/run_detection.py)."""
    return list(run_files(ls))


async def workspace_reports(ls: CiteLensServer, previous: dict[str, str]) -> tuple[list[str], bool]:
    """(one JSON report per run file, whether any of them is new to the client)."""
    loop = asyncio.get_running_loop()
    files: list[Path] = await loop.run_in_executor(ls.checks.executor, _report_files, ls, run_files)
    reports: list[str] = []
    fresh = False
    seen: set[str] = set()
    for path in files:
        uri = path.as_uri()
        seen.add(uri)
        head = f'"uri":{json.dumps(uri)}'
        doc = None
        if uri in ls.open_reports:
            await ls.checks.result(uri)  # opened and checked in a worker
            doc = ls.document(uri)
        if doc is not None:
            rid: str | None = result_id(ls, doc)
            head += f',"version":{json.dumps(doc.version)},"resultId":{json.dumps(rid)}'
            if previous.get(uri) == rid:
                reports.append(f'{{"kind":"unchanged",{head}}}')
                continue
            checked = ls.checks.diagnostics_for(doc)
            items: JsonArray | str | None = checked.diagnostics if checked is not None else None
            if items is None and checked is not None and checked.problem is not None:
                items = ls.settings_problem(doc, checked.problem, uri)
            reports.append(f'{{"kind":"full",{head},"items":{items or ls.diagnostics_json(doc, uri)}}}')
        else:
            rid = disk_result_id(ls, path)
            if rid is None:
                continue
            head += f',"version":null,"resultId":{json.dumps(rid)}'
            if previous.get(uri) == rid:
                reports.append(f'{{"kind":"unchanged",{head}}}')
                continue
            check = await disk_check(ls, path)
            reports.append(f'{{"kind":"full",{head},"items":{check.diagnostics}}}')
        fresh = True
    for uri in previous.keys() - seen:  # gone (deleted, or no longer a run file): cleared
        reports.append(f'{{"kind":"full","uri":{json.dumps(uri)},"version":null,"items":[]}}')
        fresh = True
    return reports, fresh


async def workspace_diagnostic(ls: CiteLensServer, params: types.WorkspaceDiagnosticParams) -> Json:
    ls.runs.pulled = True
    previous = {p.uri: p.value for p in params.previous_result_ids}
    held = False
    while True:
        ls.runs.changed.clear()
        reports, fresh = await workspace_reports(ls, previous)
        if fresh or held or not previous:
            return Json(text='{"items":[' + ",".join(reports) + "]}")
        try:  # nothing new: wait until something may have changed (or HOLD_S)
            await asyncio.wait_for(ls.runs.changed.wait(), HOLD_S)
        except TimeoutError:
            held = True


#: registered only for clients that pull diagnostics (see lifecycle.py)
PULL_FEATURES = [(types.WORKSPACE_DIAGNOSTIC, None, workspace_diagnostic)]
