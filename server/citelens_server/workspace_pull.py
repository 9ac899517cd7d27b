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
pushed by `citelens.checkWorkspace`; those are withdrawn when the file disappears from a
later check, and re-pushed from the file on disk when its editor closes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types

from citelens_server.protocol import Json

log = logging.getLogger("citelens_server")

#: how long an unchanged workspace pull is held before the files are looked at again
HOLD_S = 60.0
#: closed files whose rendered findings are kept (for the next pull after a workspace check)
CACHE_SIZE = 64


@dataclass(frozen=True)
class DiskCheck:
    """One check of a file on disk: its result id, diagnostics (JSON) and counts."""

    result_id: str
    diagnostics: str
    errors: int = 0
    warnings: int = 0
    error: str | None = None  # the file could not be checked (read or settings problem)


class WorkspaceRuns:
    """What the server knows of the workspace's run files besides the open ones."""

    def __init__(self) -> None:
        self.cache: OrderedDict[str, DiskCheck] = OrderedDict()
        self.changed = asyncio.Event()
        self.pulled = False  # the client has asked for workspace diagnostics
        self.pushed: set[str] = set()  # uris whose disk findings were pushed

    def remember(self, uri: str, check: DiskCheck) -> None:
        self.cache[uri] = check
        self.cache.move_to_end(uri)
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def cached(self, uri: str, result_id: str) -> DiskCheck | None:
        hit = self.cache.get(uri)
        return hit if hit is not None and hit.result_id == result_id else None

    def wake(self) -> None:
        """Something may have changed: a held workspace pull looks again."""
        self.changed.set()


def disk_result_id(ls: Any, path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return f"disk:{stat.st_mtime_ns}:{stat.st_size}/{ls.generation}"


def check_on_disk(ls: Any, path: Path) -> DiskCheck:
    """In a worker: the findings of a file as it is on disk, for workspace reports."""
    from citelens_server.diagnostics import DiagnosticsJson

    uri = path.as_uri()
    result_id = disk_result_id(ls, path) or "disk:missing"
    try:
        result = ls.session.check_file(path)
    except Exception as exc:  # a settings or read problem: reported, the scan goes on
        log.warning("%s: not checked: %s", path, exc)
        return DiskCheck(result_id, "[]", error=str(exc))
    items = DiagnosticsJson().render(result.findings, result.line_index, ls.encoding, uri)
    return DiskCheck(result_id, items, result.count("error"), result.count("warning"))


async def disk_check(ls: Any, path: Path) -> DiskCheck:
    """The file's findings on disk: the cached ones if it did not change, else checked
    in a worker."""
    uri = path.as_uri()
    result_id = disk_result_id(ls, path)
    hit = ls.runs.cached(uri, result_id) if result_id is not None else None
    if hit is not None:
        return hit
    loop = asyncio.get_running_loop()
    check: DiskCheck = await loop.run_in_executor(ls.checks.executor, check_on_disk, ls, path)
    if check.error is None:
        ls.runs.remember(uri, check)
    return check


def _report_files(ls: Any, run_files: Any) -> list[Path]:
    """The run files, without `.json` files that hold no reports (package.json, editor
    settings): the Problems panel would fill with findings about them. An open document
    and a file the `files` globs name are always reported."""
    from citelens.source.file_kind import MARKER_BYTES, may_hold_reports

    out = []
    for path in run_files(ls):
        plain_json = path.suffix.lower() == ".json" and not ls._matches_configured_globs(path)
        if plain_json and path.as_uri() not in ls.open_reports:
            try:
                with path.open(encoding="utf-8", errors="replace") as f:
                    head = f.read(MARKER_BYTES)
            except OSError:
                continue
            if not may_hold_reports(head):
                continue
        out.append(path)
    return out


async def workspace_reports(ls: Any, previous: dict[str, str]) -> tuple[list[str], bool]:
    """(one JSON report per run file, whether any of them is new to the client)."""
    from citelens_server.commands import run_files
    from citelens_server.pull import result_id

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
            rid = result_id(ls, doc)
            head += f',"version":{json.dumps(doc.version)},"resultId":{json.dumps(rid)}'
            if previous.get(uri) == rid:
                reports.append(f'{{"kind":"unchanged",{head}}}')
                continue
            checked = ls.checks.diagnostics_for(doc)
            items = checked.diagnostics if checked is not None and checked.diagnostics else None
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


def register(server: Any) -> None:
    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: Any, params: types.WorkspaceDiagnosticParams) -> Json:
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


async def push_workspace(ls: Any, checks: dict[str, DiskCheck]) -> None:
    """For clients that do not pull the workspace: push the findings of the files that
    are not open, and withdraw those pushed by an earlier check that are gone."""
    for uri in ls.runs.pushed - checks.keys():
        if uri not in ls.open_reports:
            ls.protocol.notify_json(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, {"uri": uri, "diagnostics": []})
    ls.runs.pushed = set()
    for uri, check in checks.items():
        if uri in ls.open_reports:
            continue  # the open document's own findings stand
        ls.runs.pushed.add(uri)
        ls.protocol.send_body(
            '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":'
            f'{{"uri":{json.dumps(uri)},"diagnostics":{check.diagnostics}}}}}'
        )


async def republish_from_disk(ls: Any, uri: str, path: Path) -> None:
    """A closed editor of a file the workspace check reported: its findings on disk again."""
    check = await disk_check(ls, path)
    if uri not in ls.open_reports and uri in ls.runs.pushed:
        ls.protocol.send_body(
            '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":'
            f'{{"uri":{json.dumps(uri)},"diagnostics":{check.diagnostics}}}}}'
        )
