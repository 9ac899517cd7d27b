"""The first document checked and its diagnostics published before the server is loaded.

An editor sends `didOpen` right behind `initialized`, about 0.1 s after the server
starts, when the `initialize` answer came from the start-up cache (early_answer.py). The
server then still has about 0.25 s of lsprotocol and pygls to load, and only after that
would it read, check and publish the document: the user waits for both. Nothing of the
first check needs pygls, so `__main__` does it first: when the early answer was written
to a client that takes pushed diagnostics and a `didOpen` of a run follows within
`OPEN_WAIT_S`, that document is opened in the session the server will use, checked (on
several cores from `FORK_REPORTS` reports) and its diagnostics written, exactly as the
server would render and write them. Then the server loads, handles every message read
ahead as always, and adopts the result when its own `didOpen` handler sees the same
document, version and text (checks.py `open`): it is neither checked nor published again.

Anything unusual is left to the server, which does it as it always has: no kept answer,
a client that pulls diagnostics, a message other than `initialized` before the
`didOpen`, a document the progress bar is for (from `PROGRESS_CHARS`), a project that
checks support (its batch may take seconds and shows progress), or any problem or
exception in the check (the server reports it in its own way).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from citelens_server.lsp.diagnostics import DiagnosticsJson, DocLinks, JsonArray, publish_parts
from citelens_server.lsp.positions import Encoding, encoding_name, without_bom
from citelens_server.lsp.uris import workspace_folders
from citelens_server.runtime.open_progress import PROGRESS_CHARS

if TYPE_CHECKING:
    from citelens.session import OpenDocument, Workspace
    from citelens_server.runtime.early_answer import EarlyAnswer

log = logging.getLogger("citelens_server")

#: how long after the early answer a `didOpen` is waited for (editors send it at once;
#: a client that sends nothing loses no more than this on its first request)
OPEN_WAIT_S = 0.15
#: how long a ready early answer waits for the engine and session (`_prepare`)
HOLD_S = 0.2
#: what the early check imports besides the engine (`_load`)
CHECK_MODULES = (
    "citelens.session.run_files",
    "citelens.session.first_check",
    "citelens_server.runtime.run_detection",
    "citelens_server.runtime.first_check",
)
#: how long the first message is waited for (a client that starts the server and sends
#: `initialize` later has pygls loaded meanwhile, as before)
FIRST_WAIT_S = 0.3


@dataclass
class EarlyCheck:
    """A document opened, checked and published before the server was loaded."""

    workspace: Workspace
    uri: str
    version: int | None
    text: str  # as opened (the server's own `didOpen` must bring the same)
    doc: OpenDocument
    rendered: DiagnosticsJson
    diagnostics: JsonArray
    links: DocLinks = field(default_factory=DocLinks)


@dataclass
class _Runs:
    """What run detection needs of the server (runtime/run_detection.py)."""

    session: Workspace
    folders: list[Path]


@dataclass
class EarlyStart:
    """What `__main__` made before the server loaded: the session (the engine loaded), and
    the document checked and published, if any."""

    workspace: Workspace | None = None
    checked: EarlyCheck | None = None


def check_first(early: EarlyAnswer, out: BinaryIO) -> EarlyStart:
    """Check and publish the `didOpen` read ahead, when the rules above allow (else the
    server does it)."""
    try:
        start, folders = _prepare(early)
    finally:
        early.release()
    if start is None or not early.answered(FIRST_WAIT_S) or early.sent is None:
        return start or EarlyStart()
    encoding = encoding_name(early.sent["capabilities"].get("positionEncoding"))
    _load_catalog()  # while the client sends its `didOpen`
    opened = early.wait_for_open(OPEN_WAIT_S)
    item = opened.get("params", {}).get("textDocument") if opened is not None else None
    if start.workspace is None or not isinstance(item, dict):
        return start
    uri, text, version = item.get("uri"), item.get("text"), item.get("version")
    if not isinstance(uri, str) or not isinstance(text, str) or len(text) >= PROGRESS_CHARS:
        return start
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return start
    try:
        start.checked = _check(start.workspace, folders, uri, text, version, encoding, out)
    except Exception as exc:  # the server checks it again and says what is wrong
        log.debug("no early check of %s (%s)", uri, exc)
    return start


def _prepare(early: EarlyAnswer) -> tuple[EarlyStart | None, list[Path]]:
    """The engine loaded and the session made before the early answer is written (it waits
    for them, at most `HOLD_S`): the client sends its `didOpen` on that answer, and the
    answer thread would otherwise take turns with these imports for the interpreter, both
    slower. None: no early check (no early answer, or a client that pulls)."""
    _load()
    params = early.pending(FIRST_WAIT_S)
    if not isinstance(params, dict) or _pulls(params):
        return None, []
    try:
        folders = workspace_folders(
            (f["uri"] for f in params.get("workspaceFolders") or ()), params.get("rootUri")
        )
    except (KeyError, TypeError):  # the server says what is wrong with them
        return None, []
    return EarlyStart(_workspace(params, folders)), folders


def _pulls(params: dict[str, Any]) -> bool:
    capabilities = params.get("capabilities")
    document = capabilities.get("textDocument") if isinstance(capabilities, dict) else None
    return isinstance(document, dict) and document.get("diagnostic") is not None


def _load() -> None:
    """The engine, and what `_check` imports besides (run detection, the check on several
    processes)."""
    import importlib

    def modules() -> None:
        from citelens.session.warm import load_engine

        load_engine()
        for name in CHECK_MODULES:
            importlib.import_module(name)

    _early("the engine", modules)


def _load_catalog() -> None:
    """The rules' documentation, whose links the first render writes."""

    def catalog() -> None:
        from citelens.session.catalog import load

        load()

    _early("the rules' documentation", catalog)


def _early(what: str, load: Callable[[], None]) -> None:
    """`load()` ahead of need; a failure is left to the server, which loads it again
    and says what is wrong."""
    try:
        load()
    except Exception as exc:
        log.debug("%s not loaded early (%s)", what, exc)


def _workspace(params: dict[str, Any], folders: list[Path]) -> Workspace | None:
    """The session the server would make from the same `initialize` params (lazy_session.py)."""
    from citelens.session import Workspace
    from citelens_server.runtime.editor_settings import split_settings

    try:
        _editor, engine = split_settings(params.get("initializationOptions"), "initializationOptions")
        return Workspace(tuple(folders), init_options=engine or None)
    except Exception as exc:  # the server makes it again, and says what is wrong
        log.debug("no early session (%s)", exc)
        return None


def _check(
    workspace: Workspace,
    folders: list[Path],
    uri: str,
    text: str,
    version: int | None,
    encoding: Encoding,
    out: BinaryIO,
) -> EarlyCheck | None:
    from citelens_server.runtime.first_check import first_check_in_processes
    from citelens_server.runtime.run_detection import is_run_document

    if not is_run_document(_Runs(workspace, folders), uri, text):
        return None
    doc = workspace.open(uri, without_bom(text, encoding), version)
    if doc.checker.support is not None:
        return None  # its support batch runs first, with progress (support_first.py)
    first_check_in_processes(doc, None)
    links = DocLinks()
    rendered = DiagnosticsJson(links)
    diagnostics = rendered.render_result(doc.result, doc.line_index, encoding, uri)
    _publish(out, uri, version, diagnostics)
    return EarlyCheck(workspace, uri, version, doc.text, doc, rendered, diagnostics, links)


def _publish(out: BinaryIO, uri: str, version: int | None, diagnostics: JsonArray) -> None:
    """The `publishDiagnostics` the server's `deliver` writes, framed as its protocol frames it."""
    parts = [
        p if isinstance(p, bytes) else p.encode("ascii") for p in publish_parts(uri, version, diagnostics)
    ]
    length = sum(map(len, parts))
    out.write(
        f"Content-Length: {length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".encode()
    )
    for part in parts:
        out.write(part)
    out.flush()
