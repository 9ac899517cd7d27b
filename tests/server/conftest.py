"""End-to-end fixtures: the real server over stdio, once per client profile."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from tests.server.lsp_session import PROFILES, SERVER_COMMAND, Profile, install_version_tracking

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


@pytest.fixture
def workspace(tmp_path):
    """A workspace folder whose project file names the spec (the CLI reads it too)."""
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    return tmp_path


async def start(lsp_client: LanguageClient, profile_name: str, folder, init_options=None) -> Profile:
    caps_factory, encoding, pull = PROFILES[profile_name]
    install_version_tracking(lsp_client)
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps_factory(),
            initialization_options={"debounceMs": 0, **(init_options or {})},
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
            root_uri=folder.as_uri(),
        )
    )
    assert (
        str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
        == encoding
    )
    return Profile(profile_name, encoding, pull)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND), params=list(PROFILES))
async def client(request, lsp_client: LanguageClient, workspace):
    lsp_client.profile = await start(lsp_client, request.param, workspace)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), 10)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def vscode(lsp_client: LanguageClient, workspace):
    """One push, utf-16 client (for tests that are not about the client's profile)."""
    lsp_client.profile = await start(lsp_client, "vscode-utf16-push", workspace)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), 10)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def lsp_client_plain(lsp_client: LanguageClient, workspace):
    """A client whose hovers take plain text only."""
    from tests.server.lsp_session import PROFILES

    caps = PROFILES["vscode-utf16-push"][0]()
    caps.text_document.hover = types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])
    PROFILES["plain-hover"] = (lambda: caps, "utf-16", False)
    lsp_client.profile = await start(lsp_client, "plain-hover", workspace)
    yield lsp_client
    await asyncio.wait_for(lsp_client.shutdown_session(), 10)


@pytest.fixture
def bare(tmp_path):
    """A workspace folder without a project file."""
    folder = tmp_path / "bare"
    folder.mkdir()
    return folder


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def fresh(lsp_client: LanguageClient):
    """A server the test initializes itself (to choose settings and profile first)."""
    yield lsp_client
    if lsp_client.capabilities is not None:
        await asyncio.wait_for(lsp_client.shutdown_session(), 10)
