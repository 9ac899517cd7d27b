"""The spec list, the spec picker and setting writes, as server commands:

- `citelens.listSpecs(uri)`: every built-in spec with the file's errors and warnings under
  it, the spec in force and where it comes from, and (with no spec) the track the file
  looks like, which is listed first;
- `citelens.writeSetting(uri, key, value, {dryRun, append})`: the setting written for the
  runs of `uri`'s folder into its project file, in place (`config.settings_edit`);
- `citelens.pickSpec(uri)`: for clients without a picker of their own, the specs as a
  `window/showMessageRequest`, the choice written like `writeSetting`;
- `citelens.specInForce(uri)`: only the spec in force for the file and where it comes
  from (the `[[overrides]]` table that applies, a nested project file, the editor
  settings), cheap enough for a status bar to ask on every editor switch.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

log = logging.getLogger("citelens_server")

LIST_SPECS = "citelens.listSpecs"
WRITE_SETTING = "citelens.writeSetting"
PICK_SPEC = "citelens.pickSpec"
SPEC_IN_FORCE = "citelens.specInForce"
#: specs shown by `pickSpec` (a message request's buttons)
PICK_MAX = 8
#: a file that is not open is ranked on its start
SAMPLE_CHARS = 262144


def _text(ls: Any, uri: str, path: Path | None) -> str:
    doc = ls.document(uri)
    if doc is not None:
        return str(doc.text)
    if path is None:
        return ""
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            return f.read(SAMPLE_CHARS)
    except OSError:
        return ""


def spec_list(ls: Any, uri: str | None) -> dict[str, Any]:
    """The answer of `citelens.listSpecs` (the engine's `session.spec_choice`), with the
    spec in force and where it comes from."""
    from citelens.session.spec_choice import spec_choices
    from citelens_server.runtime.server import uri_path

    path = uri_path(uri) if uri else None
    in_force = spec_in_force(ls, path, "listSpecs")
    text = _text(ls, uri, path) if uri else ""
    return {**spec_choices(text, in_force["spec"]), "active": in_force["spec"], "source": in_force["source"]}


def spec_in_force(ls: Any, path: Path | None, asked_by: str = "specInForce") -> dict[str, Any]:
    """The spec the file is checked with and where it comes from (both None: no spec, or
    the settings cannot be read; `error` then says why)."""
    if path is None:
        return {"spec": None, "source": None}
    try:
        settings = ls.session.settings_for(path)
    except Exception as exc:  # a broken project file: nothing is in force until it is fixed
        log.warning("%s: %s", asked_by, exc)
        return {"spec": None, "source": None, "error": str(exc)}
    spec = settings.spec
    return {"spec": spec, "source": settings.origin("spec") if spec is not None else None}


async def in_force(ls: Any, *args: Any) -> dict[str, Any]:
    from citelens_server.runtime.server import uri_path

    uri = args[0] if args and isinstance(args[0], str) else None
    return spec_in_force(ls, uri_path(uri) if uri else None)


def setting_edit_for(ls: Any, path: Path, key: str, value: Any, append: bool = False) -> Any:
    """The engine's in-place edit for `key = value` for the runs of `path`'s folder (a new
    `citelens.toml` in the workspace folder when there is no project file)."""
    from citelens.session.setting_writes import edit_for
    from citelens_server.runtime.run_detection import folder_of

    return edit_for(ls.session, path, key, value, append=append, folder=folder_of(ls, path))


def as_workspace_edit(edit: Any) -> types.WorkspaceEdit:
    """The engine's line edit as an LSP edit (whole lines: no column units involved)."""
    uri = edit.path.as_uri()
    rng = types.Range(types.Position(edit.start, 0), types.Position(edit.end, 0))
    change = types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
        edits=[types.TextEdit(range=rng, new_text=edit.new_text)],
    )
    if edit.created:
        create = types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True))
        return types.WorkspaceEdit(document_changes=[create, change])
    return types.WorkspaceEdit(document_changes=[change])


def write_setting(ls: Any, uri: str, key: str, value: Any, options: Any = None) -> dict[str, Any]:
    """The answer of `citelens.writeSetting`: the project file written on disk (atomically;
    an editor with the file open reloads it), the open runs checked again."""
    from citelens.files import FileError
    from citelens.session.errors import ConfigError
    from citelens_server.runtime.server import uri_path

    opts = options if isinstance(options, dict) else {}
    path = uri_path(uri)
    if path is None:
        return {"applied": False, "reason": "not a file on disk"}
    try:
        edit = setting_edit_for(ls, path, key, value, bool(opts.get("append")))
    except (ConfigError, TypeError, ValueError) as exc:
        return {"applied": False, "reason": str(exc)}
    answer = {"applied": False, "where": edit.where, "path": str(edit.path), "created": edit.created}
    if opts.get("dryRun"):
        return answer
    try:
        edit.apply()
    except FileError as exc:
        return {**answer, "reason": str(exc)}
    ls.session.refresh()
    ls.recheck_all()
    return {**answer, "applied": True}


async def list_specs(ls: Any, *args: Any) -> dict[str, Any]:
    uri = args[0] if args and isinstance(args[0], str) else None
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(ls.checks.executor, spec_list, ls, uri)


async def write(ls: Any, uri: str, key: str, value: Any, *rest: Any) -> dict[str, Any]:
    return write_setting(ls, uri, key, value, rest[0] if rest else None)


async def pick_spec(ls: Any, uri: str, *rest: Any) -> dict[str, Any]:
    listed = (await list_specs(ls, uri))["specs"][:PICK_MAX]
    titles = {}
    for entry in listed:
        errors = entry.get("errors")
        how = "" if errors is None else (" (no errors)" if errors == 0 else f" ({errors} errors)")
        titles[f"{entry['id']}{how}"] = entry["id"]
    chosen = await ls.window_show_message_request_async(
        types.ShowMessageRequestParams(
            type=types.MessageType.Info,
            message="CiteLens: the track spec for this folder's runs",
            actions=[types.MessageActionItem(title=t) for t in titles],
        )
    )
    if chosen is None or chosen.title not in titles:
        return {"applied": False, "reason": "no spec chosen"}
    return write_setting(ls, uri, "spec", titles[chosen.title])


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (LIST_SPECS, list_specs),
    (WRITE_SETTING, write),
    (PICK_SPEC, pick_spec),
    (SPEC_IN_FORCE, in_force),
]
