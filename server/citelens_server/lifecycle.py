"""initialize / initialized / configuration: settings from every source the editor has.

Per key the session ranks them: project file > the folder's editor settings >
`initializationOptions` > defaults. `workspace/configuration` is asked with a timeout, so
a client that never answers leaves the server running on what it already has.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from citelens_server.editor_settings import split_settings
from citelens_server.positions import encoding_name
from citelens_server.server import CiteLensServer, _supports, uri_path

log = logging.getLogger("citelens_server")

SECTION = "citelens"
CONFIGURATION_TIMEOUT_S = 5.0
#: files whose change can change the settings or what the checks read
WATCHED = ("**/citelens.toml", "**/pyproject.toml", "**/*.jsonl", "**/*.json")


def register(server: CiteLensServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: CiteLensServer, params: types.InitializeParams) -> None:
        from pygls.capabilities import ServerCapabilitiesBuilder

        from citelens.session import Workspace

        ls.encoding = encoding_name(ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities))
        editor, engine = split_settings(params.initialization_options, "initializationOptions")
        ls.set_editor(editor)
        folders = [uri_path(f.uri) for f in params.workspace_folders or ()]
        if not folders and params.root_uri:
            folders = [uri_path(params.root_uri)]
        ls.folders = [f for f in folders if f is not None]
        ls.session = Workspace(tuple(ls.folders), init_options=engine or None)
        log_settings_messages(ls)
        ls.pull = _supports(params.capabilities, "text_document.diagnostic")
        if ls.pull:
            from citelens_server import pull, workspace_pull

            pull.register(ls)
            workspace_pull.register(ls)
        log.info(
            "citelens %s: %s positions, %s diagnostics",
            ls.version,
            ls.encoding,
            "pull" if ls.pull else "push",
        )

    @server.feature(types.INITIALIZED)
    async def initialized(ls: CiteLensServer, params: types.InitializedParams) -> None:
        await _watch_settings_files(ls)
        if await read_configuration(ls):
            ls.recheck_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: CiteLensServer, params: types.DidChangeConfigurationParams
    ) -> None:
        changed = False
        if _supports(ls.client_capabilities, "workspace.configuration"):
            changed = await read_configuration(ls)
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

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: CiteLensServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.runs.wake()  # a run file may have changed on disk
        if ls.session.refresh():
            ls.recheck_all()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: CiteLensServer, *args: Any) -> None:
        for uri in list(ls.open_reports):
            ls.debouncer.cancel(uri)


async def read_configuration(ls: CiteLensServer) -> bool:
    """Ask for section `citelens`: once globally, once per workspace folder."""
    if not _supports(ls.client_capabilities, "workspace.configuration"):
        return False
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
        return False
    for scope, answer in zip(scopes, answers or ()):
        where = "settings" if scope is None else f"settings of {scope}"
        editor, engine = split_settings(answer, where, ls.editor)
        if scope is None:
            ls.set_editor(editor)
        ls.session.set_editor_settings(engine, scope)
    log_settings_messages(ls)
    return True


def log_settings_messages(ls: CiteLensServer) -> None:
    """Editor values the session left out (a wrong type, an unknown key) go to the log."""
    for message in ls.session.messages:
        log.warning("%s", message)
    ls.session.messages.clear()


async def _watch_settings_files(ls: CiteLensServer) -> None:
    if not _supports(ls.client_capabilities, "workspace.did_change_watched_files.dynamic_registration"):
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
