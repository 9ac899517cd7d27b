"""What the server knows of the workspace's run files besides the open ones: the
findings of files on disk (checked in a worker, cached by size and modification time),
whether the client pulls workspace diagnostics, and the files whose findings were pushed
(withdrawn when they disappear from a later check, re-pushed from disk when their editor
closes). The `workspace/diagnostic` handler is features/workspace_diagnostics.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens_server.lsp.diagnostics import DiagnosticsJson

if TYPE_CHECKING:
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

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
    #: reports and support shares, for "Check All Runs" (`support_of`)
    about: dict[str, Any] = field(default_factory=dict)


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


def disk_result_id(ls: CiteLensServer, path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return f"disk:{stat.st_mtime_ns}:{stat.st_size}/{ls.generation}"


def check_on_disk(ls: CiteLensServer, path: Path) -> DiskCheck:
    """In a worker: the findings of a file as it is on disk, for workspace reports."""
    uri = path.as_uri()
    result_id = disk_result_id(ls, path) or "disk:missing"
    try:
        result = ls.session.check_file(path)
    except Exception as exc:  # a settings or read problem: reported, the scan goes on
        log.warning("%s: not checked: %s", path, exc)
        return DiskCheck(result_id, "[]", error=str(exc))
    items = str(DiagnosticsJson(ls.links).render(result.findings, result.line_index, ls.encoding, uri))
    from citelens.session.run_summary import support_figures

    about = {"reports": result.reports, **support_figures(result)}
    return DiskCheck(result_id, items, result.count("error"), result.count("warning"), about=about)


async def disk_check(ls: CiteLensServer, path: Path) -> DiskCheck:
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


async def push_workspace(ls: CiteLensServer, checks: dict[str, DiskCheck]) -> None:
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


async def republish_from_disk(ls: CiteLensServer, uri: str, path: Path) -> None:
    """A closed editor of a file the workspace check reported: its findings on disk again."""
    check = await disk_check(ls, path)
    if uri not in ls.open_reports and uri in ls.runs.pushed:
        ls.protocol.send_body(
            '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":'
            f'{{"uri":{json.dumps(uri)},"diagnostics":{check.diagnostics}}}}}'
        )
