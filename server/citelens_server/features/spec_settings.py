"""The spec list, the spec picker and setting writes, as server commands:

- `citelens.listSpecs(uri)`: every built-in spec with the file's errors and warnings under
  it, the spec in force and where it comes from, and (with no spec) the track the file
  looks like, which is listed first;
- `citelens.writeSetting(uri, key, value, {dryRun, append})`: the setting written for the
  runs of `uri`'s folder into its project file, in place (`config.settings_edit`);
- `citelens.pickSpec(uri)`: for clients without a picker of their own, the specs as a
  `window/showMessageRequest`, the choice written like `writeSetting`.
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


def _sample(text: str) -> str:
    """At most the first 50 lines: each spec is a whole check."""
    cut = 0
    for _ in range(50):
        nxt = text.find("\n", cut)
        if nxt < 0:
            return text
        cut = nxt + 1
    return text[:cut]


def spec_list(ls: Any, uri: str | None) -> dict[str, Any]:
    """The answer of `citelens.listSpecs`."""
    from citelens.session.spec_ranking import rank_specs
    from citelens.specs import builtin_specs
    from citelens.specs.recognise import recognise_track
    from citelens_server.runtime.server import uri_path

    specs = builtin_specs()
    path = uri_path(uri) if uri else None
    active = source = None
    if path is not None:
        try:
            settings = ls.session.settings_for(path)
            active = settings.spec
            source = settings.origin("spec") if settings.spec is not None else None
        except Exception as exc:  # a broken project file: the list without what is in force
            log.warning("listSpecs: %s", exc)
    text = _sample(_text(ls, uri, path)) if uri else ""
    fits = {f.spec: f for f in rank_specs(text)} if text.strip() else {}
    guess = recognise_track(text) if text.strip() and active is None else None
    order = list(fits) or sorted(specs)
    if guess is not None and guess.confident:
        order.remove(guess.spec)
        order.insert(0, guess.spec)
    out = []
    for spec_id in order:
        entry: dict[str, Any] = {"id": spec_id, "description": specs[spec_id].description}
        if spec_id in fits:
            entry.update(errors=fits[spec_id].errors, warnings=fits[spec_id].warnings)
        out.append(entry)
    said = None
    if guess is not None and guess.confident:
        said = {"spec": guess.spec, "confidence": guess.confidence, "reasons": list(guess.reasons)}
    return {"specs": out, "active": active, "source": source, "guess": said}


def setting_edit_for(ls: Any, path: Path, key: str, value: Any, append: bool = False) -> Any:
    """The engine's in-place edit for `key = value` for the runs of `path`'s folder (a new
    `citelens.toml` in the workspace folder when there is no project file)."""
    from citelens.config.settings_edit import setting_edit
    from citelens_server.runtime.run_detection import folder_of

    if append and isinstance(value, list):
        current = list(getattr(ls.session.settings_for(path), key, ()) or ())
        value = current + [v for v in value if v not in current]
    return setting_edit(path, key, value, folder_of=folder_of(ls, path))


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
    from citelens.config import ConfigError
    from citelens.files import FileError
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
]
