"""initialize / initialized / configuration: settings from every source the editor has.

Per key the session ranks them: project file > the folder's editor settings >
`initializationOptions` > defaults. `workspace/configuration` is asked with a timeout, so
a client that never answers leaves the server running on what it already has.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from citelens_server.lsp.capabilities import supports
from citelens_server.lsp.positions import encoding_name
from citelens_server.lsp.uris import workspace_folders
from citelens_server.runtime.editor_settings import split_settings
from citelens_server.runtime.notices import show_notices
from citelens_server.runtime.protocol import choose_position_encoding
from citelens_server.runtime.server import CiteLensServer, Feature

log = logging.getLogger("citelens_server")

SECTION = "citelens"
CONFIGURATION_TIMEOUT_S = 5.0
#: files whose change can change the settings or what the checks read
WATCHED = ("**/citelens.toml", "**/pyproject.toml", "**/*.jsonl", "**/*.json")


def initialize(ls: CiteLensServer, params: types.InitializeParams) -> None:
    ls.encoding = encoding_name(choose_position_encoding(params.capabilities))
    editor, engine = split_settings(params.initialization_options, "initializationOptions")
    ls.set_editor(editor)
    ls.folders = workspace_folders((f.uri for f in params.workspace_folders or ()), params.root_uri)
    ls.lazy_session.plan(tuple(ls.folders), engine or None)
    # the engine loads once the answer is written (lazy_session.py); without an event
    # loop (a handler called directly) the session is made on first use
    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop().call_soon(start_warm_up, ls)
    ls.pull = supports(params.capabilities, "text_document.diagnostic")
    if ls.pull:
        ls.add_features(ls.pull_features)
    log.info(
        "citelens %s: %s positions, %s diagnostics",
        ls.version,
        ls.encoding,
        "pull" if ls.pull else "push",
    )


def start_warm_up(ls: CiteLensServer) -> None:
    """Make the session and load the engine in a worker; then log what the
    initialization options got wrong (as `initialize` did when it made the session)."""
    from citelens_server.runtime.lazy_session import warm_up

    loop = asyncio.get_running_loop()
    done = loop.run_in_executor(None, warm_up, ls.lazy_session)
    done.add_done_callback(lambda _: log_settings_messages(ls))


async def initialized(ls: CiteLensServer, params: types.InitializedParams) -> None:
    await _watch_settings_files(ls)
    if await read_configuration(ls):
        ls.recheck_all()


async def did_change_configuration(ls: CiteLensServer, params: types.DidChangeConfigurationParams) -> None:
    changed = False
    if supports(ls.client_capabilities, "workspace.configuration"):
        # the client says they changed: checked again even when the values read the same
        # (a check that failed is retried once on a settings change)
        changed = await read_configuration(ls) is not None
    else:  # clients without workspace/configuration push the settings here
        settings = params.settings
        if isinstance(settings, dict) and SECTION in settings:
            settings = settings[SECTION]
        editor, engine = split_settings(settings, "workspace/didChangeConfiguration", ls.editor)
        ls.set_editor(editor)
        ls.session.set_editor_settings(engine)
        log_settings_messages(ls)
        changed = True
    if ls.session.refresh() or changed:
        ls.recheck_all()


def did_change_watched_files(ls: CiteLensServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.runs.wake()  # a run file may have changed on disk
    if ls.session.refresh():
        ls.recheck_all()


def shutdown(ls: CiteLensServer, *args: Any) -> None:
    for uri in list(ls.open_reports):
        ls.debouncer.cancel(uri)


FEATURES: list[Feature] = [
    (types.INITIALIZE, None, initialize),
    (types.INITIALIZED, None, initialized),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, did_change_configuration),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, did_change_watched_files),
    (types.SHUTDOWN, None, shutdown),
]


async def read_configuration(ls: CiteLensServer) -> bool | None:
    """Ask for section `citelens`: once globally, once per workspace folder. Whether the
    engine's settings changed (the editor's own, such as the debounce, change no finding);
    None without a usable answer."""
    if not supports(ls.client_capabilities, "workspace.configuration"):
        return None
    scopes: list[Path | None] = [None, *ls.folders]
    items = [
        types.ConfigurationItem(section=SECTION, scope_uri=None if s is None else s.as_uri()) for s in scopes
    ]
    try:
        answers = await asyncio.wait_for(
            ls.workspace_configuration_async(types.ConfigurationParams(items=items)), CONFIGURATION_TIMEOUT_S
        )
    except Exception as exc:  # no answer, or an error: keep what we have
        log.warning(
            "workspace/configuration: no usable answer (%s); keeping the current settings", exc or "timeout"
        )
        return None
    generation = ls.session.generation
    for scope, answer in zip(scopes, answers or ()):
        where = "settings" if scope is None else f"settings of {scope}"
        editor, engine = split_settings(answer, where, ls.editor)
        if scope is None:
            ls.set_editor(editor)
        ls.session.set_editor_settings(engine, scope)
    log_settings_messages(ls)
    return ls.session.generation != generation


def log_settings_messages(ls: CiteLensServer) -> None:
    """Editor values the session left out (a wrong type, an unknown key) go to the log."""
    for message in ls.session.messages:
        log.warning("%s", message)
    ls.session.messages.clear()
    show_notices(ls)


async def _watch_settings_files(ls: CiteLensServer) -> None:
    if not supports(ls.client_capabilities, "workspace.did_change_watched_files.dynamic_registration"):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
    )
    registration = types.Registration(
        id="citelens-settings-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    try:
        await asyncio.wait_for(
            ls.client_register_capability_async(types.RegistrationParams(registrations=[registration])),
            CONFIGURATION_TIMEOUT_S,
        )
    except Exception as exc:
        log.info("file watching not registered (%s); settings files are re-read on save", exc or "timeout")
