"""End-to-end fixtures: the real server over stdio, once per client profile."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.helpers.lsp_session import PROFILES, SERVER_COMMAND, start

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


@pytest.fixture
def workspace(tmp_path):
    """A workspace folder whose project file names the spec (the CLI reads it too)."""
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    return tmp_path


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
    caps = PROFILES["vscode-utf16-push"][0]()
    caps.text_document.hover = types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])
    lsp_client.profile = await start(lsp_client, "vscode-utf16-push", workspace, capabilities=caps)
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
