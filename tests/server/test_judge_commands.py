"""The editor's on-demand model judges: "Judge this citation" (a command, and a code action
on a citation naming the model) and "Judge this file" send the citations to the model (a
stand-in chat-completions server started by the test, set up through the server's
environment: no model can be downloaded here), never a keystroke; afterwards the hover and
the findings show the model's verdict, and the hover does not repeat a support finding's
message. Against a slow stand-in: the hover answers meanwhile with the lexical evidence,
and Cancel stops the judging at once, keeping the answers received. The nli judge with a
tiny ONNX model built by the test."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from citelens.source.line_index import LineIndex
from citelens.support.run import SupportRun
from tests.helpers.chat_server import Gate, Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, write_run
from tests.helpers.lsp_session import action_command, diagnostics, open_document, wait_until

#: model calls a judging has in flight at once (the editor's support run)
AT_ONCE = SupportRun.concurrency


def _set_up(monkeypatch, tmp_path, workspace, url: str) -> None:
    """The model named in the environment the server starts with (and the user's cache
    folder the test's own); the project checks support with the kiddie spec."""
    monkeypatch.setenv("CITELENS_LLM_ENDPOINT", url)
    monkeypatch.setenv("CITELENS_LLM_MODEL", "stand-in")
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))
    (workspace / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\n', encoding="utf-8")


@pytest.fixture
def stand_in(workspace, monkeypatch, tmp_path):
    """A stand-in model that says "No Support"."""
    with chat_server(lambda body: Reply("No Support")) as server:
        _set_up(monkeypatch, tmp_path, workspace, url=server.url)
        yield server


@pytest.fixture
def slow_stand_in(workspace, monkeypatch, tmp_path):
    """A slow stand-in: it says "No Support" to the first `gate.free` requests (none unless
    the test says), and holds the others until the test opens the gate."""
    gate = Gate(Reply("No Support"))
    with chat_server(gate) as server:
        _set_up(monkeypatch, tmp_path, workspace, url=server.url)
        yield server, gate


@pytest.fixture
def slow(slow_stand_in, vscode):
    """The slow stand-in, its gate opened before the server stops (the server's exit
    would wait for a call still held)."""
    yield slow_stand_in
    slow_stand_in[1].open()


@pytest.fixture
def no_model(workspace, monkeypatch, tmp_path):
    """No model judge set up in the environment the server starts with."""
    for name in ("CITELENS_LLM_ENDPOINT", "CITELENS_LLM_MODEL", "CITELENS_LLM_KEY_ENV", "CITELENS_NLI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))
    (workspace / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\n', encoding="utf-8")


@pytest.fixture
def nli_model(no_model, workspace, tmp_path, monkeypatch):
    """A tiny ONNX cross-encoder built here, named in the environment; the project's judge
    is nli."""
    for module in ("onnx", "onnxruntime", "tokenizers"):
        pytest.importorskip(module, reason="the nli judge needs the nli extra: pip install -e '.[nli,test]'")
    from tests.helpers.nli_model import build_model

    monkeypatch.setenv("CITELENS_NLI_MODEL", str(build_model(tmp_path / "models" / "tiny")))
    (workspace / "citelens.toml").write_text(
        'spec = "kiddie"\nsupport = true\nsupport_judge = "nli"\n', encoding="utf-8"
    )


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


def _citation_of(text: str, sentence: str) -> int:
    """The offset inside the citation of `sentence`."""
    return text.index('"Earthworm"', text.index(sentence)) + 1


def _judge_file(client, uri: str):
    return client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )


async def _judge_actions(client, uri: str, position: types.Position, only=None) -> list:
    """The "Judge this citation" code actions at `position`."""
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri=uri),
            types.Range(position, position),
            types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in actions or [] if a.title.startswith("Judge this citation")]


def _judge_tokens(client) -> list[str]:
    return [t for t in client.progress_reports if "judge" in str(t)]


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
    await diagnostics(vscode, vscode.profile, uri, 1)  # opened (in a worker) before the command
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )
    assert not answer["ok"] and "CITELENS_LLM_ENDPOINT" in answer["reason"]


async def test_a_command_sent_right_after_opening_waits_for_the_open(no_model, vscode, workspace):
    """A fast client asks to judge a citation before the server's worker has opened it (a
    run of 5,000 reports takes a while): the command waits for the open, as a hover does,
    and answers as it would later, instead of "the file is not open"."""
    path = write_run(workspace, [(SENTENCE, ["Earthworm"])] * 5000, {"Earthworm": DOCUMENT})
    uri = open_document(vscode, path, path.read_text(encoding="utf-8"))
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeCitation", arguments=[uri, 0, 0])
    )
    assert not answer["ok"] and "CITELENS_LLM_ENDPOINT" in answer["reason"], answer


async def test_a_code_action_on_a_citation_names_the_model_and_judges_it(stand_in, vscode, workspace):
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    at = _citation_of(text, SENTENCE)
    pos = _pos(text, at, vscode.profile.encoding)
    (action,) = await _judge_actions(vscode, uri, pos)
    assert action.title == "Judge this citation with llm:stand-in"
    assert stand_in.requests == []  # offering it judged nothing
    command, arguments = action_command(action)
    assert (command, arguments) == ("citelens.judgeCitation", [uri, pos.line, pos.character])
    assert await _judge_actions(vscode, uri, _pos(text, text.index('"metadata"'), "utf-16")) == []
    assert await _judge_actions(vscode, uri, pos, only=[types.CodeActionKind.QuickFix]) == []
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=arguments)
    )
    assert answer["ok"] and answer["answered"] == 1
    assert len(stand_in.requests) == 1 and SENTENCE in stand_in.prompts()[0]
    assert "llm:stand-in" in await _hover(vscode, uri, text, at)


async def test_no_judge_action_without_a_model(no_model, vscode, workspace):
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    pos = _pos(text, _citation_of(text, SENTENCE), vscode.profile.encoding)
    assert await _judge_actions(vscode, uri, pos) == []


async def test_the_hover_answers_at_once_while_a_slow_model_judges(slow, vscode, workspace):
    server, gate = slow
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    at = _citation_of(text, SENTENCE)
    judging = asyncio.ensure_future(_judge_file(vscode, uri))
    await asyncio.to_thread(server.wait_for_requests, 2)  # both calls held at the endpoint
    # answered while no model answer can have come (the gate is closed): it waits for none
    during = await asyncio.wait_for(_hover(vscode, uri, text, at), 5)
    assert not judging.done() and not gate.opened.is_set()
    assert "lexical" in during and "meaning not checked" in during and "characters 0-" in during
    assert "llm:stand-in" not in during
    gate.open()
    answer = await asyncio.wait_for(judging, 20)
    assert answer["ok"] and answer["answered"] == 2 and not answer["cancelled"]
    after = await _hover(vscode, uri, text, at)
    assert "llm:stand-in" in after and "unsupported" in after


async def test_cancel_stops_a_slow_judging_and_keeps_the_answers_so_far(slow, vscode, workspace):
    server, gate = slow
    gate.free = 2  # two answers come, then the endpoint is slow
    sentences = [f"Worms live in the dirt and make tunnels number {n}." for n in range(8)]
    path = write_run(workspace, [(s, ["Earthworm"]) for s in sentences], {"Earthworm": DOCUMENT})
    text = path.read_text(encoding="utf-8")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    judging = asyncio.ensure_future(_judge_file(vscode, uri))
    # the two answers, then as many calls as are made at once, held at the endpoint
    await asyncio.to_thread(server.wait_for_requests, 2 + AT_ONCE)
    await wait_until(vscode, lambda: _judge_tokens(vscode), "the judging's progress", method=types.PROGRESS)
    (token,) = _judge_tokens(vscode)
    vscode.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    answer = await asyncio.wait_for(judging, 10)  # the held calls are not waited for
    assert not gate.opened.is_set()
    assert answer["cancelled"] and (answer["calls"], answer["answered"]) == (8, 2)
    assert answer["reason"] == "cancelled; the answers so far are kept"
    assert vscode.progress_reports[token][-1].kind == "end"
    assert vscode.progress_reports[token][-1].message == "cancelled"
    # the answers received are kept: the hover shows them, the others are still lexical
    answered = {s for s in sentences if any(s in prompt for prompt in gate.answered)}
    assert len(answered) == 2
    for sentence in sentences:
        hover = await _hover(vscode, uri, text, _citation_of(text, sentence))
        assert ("llm:stand-in" in hover) == (sentence in answered), sentence
    gate.open()
    again = await asyncio.wait_for(_judge_file(vscode, uri), 20)  # the rest, not the two again
    assert again["ok"] and (again["calls"], again["answered"]) == (6, 6)
    assert len(server.requests) == 2 + AT_ONCE + 6  # no call was made after the cancel


async def test_judge_this_citation_with_the_nli_judge(nli_model, vscode, workspace):
    from tests.helpers.nli_model import LONG
    from tests.helpers.nli_model import SENTENCE as UNDERGROUND

    path = write_run(workspace, [(UNDERGROUND, ["Earthworm"])], {"Earthworm": LONG})
    text = path.read_text(encoding="utf-8")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    at = _citation_of(text, UNDERGROUND)
    assert "nli:tiny" not in await _hover(vscode, uri, text, at)
    (action,) = await _judge_actions(vscode, uri, _pos(text, at, vscode.profile.encoding))
    assert action.title == "Judge this citation with nli:tiny"
    command, arguments = action_command(action)
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=arguments)
    )
    assert answer["ok"] and answer["judge"] == "nli:tiny" and answer["answered"] == 1
    hover = await _hover(vscode, uri, text, at)
    assert "nli:tiny" in hover and "supported" in hover and "unsupported" not in hover
