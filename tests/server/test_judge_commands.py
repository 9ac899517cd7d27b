"""The editor's on-demand model judges: "Judge this citation" and "Judge this file" send
the citations to the model (a stand-in chat-completions server started by the test, set
up through the server's environment), never a keystroke; afterwards the hover and the
findings show the model's verdict, and the hover does not repeat a support finding's
message."""

from __future__ import annotations

import pytest
from lsprotocol import types

from citelens.source.line_index import LineIndex
from tests.helpers.chat_server import Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, write_run
from tests.helpers.lsp_session import diagnostics, open_document


@pytest.fixture
def stand_in(workspace, monkeypatch, tmp_path):
    """A stand-in model that says "No Support", named in the environment the server starts
    with (and the user's cache folder the test's own)."""
    with chat_server(lambda body: Reply("No Support")) as server:
        monkeypatch.setenv("CITELENS_LLM_ENDPOINT", server.url)
        monkeypatch.setenv("CITELENS_LLM_MODEL", "stand-in")
        monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))
        (workspace / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\n', encoding="utf-8")
        yield server


def _open(client, workspace):
    responses = [(SENTENCE, ["Earthworm"]), ("Worms make tunnels in soil.", ["Earthworm"])]
    path = write_run(workspace, responses, {"Earthworm": DOCUMENT})
    text = path.read_text(encoding="utf-8")
    return open_document(client, path, text), text


def _pos(text: str, offset: int, encoding: str) -> types.Position:
    line, ch = LineIndex(text).position(offset, encoding)
    return types.Position(line, ch)


async def _hover(client, uri, text, offset) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), _pos(text, offset, client.profile.encoding))
    )
    assert hover is not None
    return hover.contents.value.replace("\\", "")


async def test_judge_this_citation_then_the_hover_shows_the_models_verdict(stand_in, vscode, workspace):
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    assert stand_in.requests == []  # opening and checking send nothing to the model
    at = text.index('"Earthworm"]') + 1
    before = await _hover(vscode, uri, text, at)
    assert "lexical" in before and "meaning not checked" in before
    assert "characters 0-" in before  # the passage whole, with its place in the document
    pos = _pos(text, at, vscode.profile.encoding)
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeCitation", arguments=[uri, pos.line, pos.character])
    )
    assert answer["ok"] and answer["judge"] == "llm:stand-in" and answer["answered"] == 1
    assert len(stand_in.requests) == 1 and SENTENCE in stand_in.prompts()[0]
    after = await _hover(vscode, uri, text, at)
    assert "unsupported" in after and "llm:stand-in" in after
    # the finding it now gives is named in the hover, its message not repeated
    assert "citation_unsupported" in after and "does not support this sentence" not in after


async def test_judge_this_file_sends_every_citation(stand_in, vscode, workspace):
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )
    assert answer["ok"] and answer["calls"] == 2 and answer["answered"] == 2
    assert len(stand_in.requests) == 2


async def test_without_a_model_set_up_the_command_says_so(vscode, workspace):
    uri, _text = _open(vscode, workspace)
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )
    assert not answer["ok"] and "CITELENS_LLM_ENDPOINT" in answer["reason"]
