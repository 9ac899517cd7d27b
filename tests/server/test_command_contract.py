"""One contract between the extension and the server: every server command the extension
calls (vscode-extension/src/serverCommands.ts) is in the server's executeCommandProvider,
and the command of the server's "Set track spec…" action is one the extension registers."""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from tests.helpers.lsp_session import PROFILES

EXTENSION = Path(__file__).resolve().parents[2] / "vscode-extension" / "src"


def _table(name: str) -> set[str]:
    text = (EXTENSION / "serverCommands.ts").read_text(encoding="utf-8")
    body = text.split(f"export const {name}", 1)[1].split(";", 1)[0]
    return set(re.findall(r'"(citelens\.\w+)"', body))


def _registered_by_the_extension() -> set[str]:
    text = (EXTENSION / "extension.ts").read_text(encoding="utf-8")
    return set(re.findall(r'register\("(citelens\.\w+)"', text))


async def test_every_server_command_the_extension_calls_exists(fresh, bare):
    result = await fresh.initialize_session(
        types.InitializeParams(
            capabilities=PROFILES["vscode-utf16-push"][0](),
            workspace_folders=[types.WorkspaceFolder(uri=bare.as_uri(), name="ws")],
        )
    )
    offered = set(result.capabilities.execute_command_provider.commands)
    calls = _table("SERVER_COMMAND")
    assert {"citelens.listSpecs", "citelens.writeSetting", "citelens.checkWorkspace"} <= calls
    assert calls <= offered, f"the extension calls commands the server lacks: {sorted(calls - offered)}"
    from citelens_server.features.spec_settings import PICK_SPEC

    assert PICK_SPEC in offered  # clients without a picker of their own


def test_the_extension_registers_the_commands_it_keeps_for_itself():
    own = _table("OWN_COMMANDS")
    assert "citelens.pickSpec" in own  # the server's "Set track spec…" action opens the extension's picker
    assert own <= _registered_by_the_extension(), sorted(own - _registered_by_the_extension())
