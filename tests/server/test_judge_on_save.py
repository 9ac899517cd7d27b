"""Model judges in the editor from the user's settings: the model named in the editor's
`support_model` settings (here through `workspace/configuration`, as VS Code sends its
user settings), judging on save when `on_save` is on and the file's judge is a model
judge, never on opening or typing; the verdicts `citelens check --support --judge llm`
cached shown in the hover without calling the model; and a project file that is not
trusted cannot name the model; saves while it judges make it judge once more when it
ends. The model is a stand-in chat-completions server started by the test (no model can be
downloaded here)."""

from __future__ import annotations

import asyncio
import json

import pytest
from lsprotocol import types

from citelens.source.line_index import LineIndex
from tests.helpers.chat_server import Gate, Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, check_support, report_with_documents
from tests.helpers.lsp_session import diagnostics, open_document, start, wait_until

RESPONSES = [(SENTENCE, ["Earthworm"]), ("Worms make tunnels in soil.", ["Earthworm"])]


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """A stand-in model answering "No Support"; the user's cache folder is the test's own
    (the server started after this fixture inherits it)."""
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))
    for name in ("CITELENS_LLM_ENDPOINT", "CITELENS_LLM_MODEL", "CITELENS_LLM_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    with chat_server(lambda body: Reply("No Support")) as server:
        yield server


def _project(folder, judge: str = "llm", extra: str = "") -> None:
    (folder / "citelens.toml").write_text(
        f'spec = "kiddie"\nsupport = true\nsupport_judge = "{judge}"\n{extra}', encoding="utf-8"
    )


def _text(responses) -> str:
    return json.dumps(report_with_documents(responses, {"Earthworm": DOCUMENT})) + "\n"


def _write_run(folder):
    text = _text(RESPONSES)
    path = folder / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text


async def _start(client, folder, model: dict | None):
    """The server, with the user's editor settings holding `support_model`."""
    settings = {"debounceMs": 0, **({"support_model": model} if model else {})}
    client.set_configuration(settings, section="citelens")
    client.profile = await start(client, "vscode-utf16-push", folder, settings)


async def _hover(client, uri: str, text: str) -> str:
    offset = text.index('"Earthworm"]') + 1
    line, ch = LineIndex(text).position(offset, client.profile.encoding)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(line, ch))
    )
    assert hover is not None
    return hover.contents.value.replace("\\", "")


async def _until(condition, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.05)


def _save(client, uri: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))


async def test_on_save_the_file_goes_to_the_model_named_in_the_user_settings(stand_in, fresh, tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    _project(folder)
    path, text = _write_run(folder)
    await _start(fresh, folder, {"endpoint": stand_in.url, "model": "stand-in", "on_save": True})
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, fresh.profile, uri, 1)
    before = await _hover(fresh, uri, text)
    assert stand_in.requests == []  # opening, checking and hovering send nothing
    assert "lexical" in before
    _save(fresh, uri)
    await _until(lambda: len(stand_in.requests) == 2)  # both citations, in the background
    assert {r.body["model"] for r in stand_in.requests} == {"stand-in"}
    await _until(lambda: "llm:stand-in" in json.dumps([d.message for d in fresh.diagnostics.get(uri, [])]))
    after = await _hover(fresh, uri, text)
    assert "llm:stand-in" in after and "unsupported" in after
    assert "evidence below is the word matcher's" in after and "characters 0-" in after
    # saved again unchanged: every verdict is cached, nothing is asked twice
    _save(fresh, uri)
    await asyncio.sleep(0.5)
    assert len(stand_in.requests) == 2


async def test_without_on_save_a_save_sends_nothing(stand_in, fresh, tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    _project(folder)
    path, text = _write_run(folder)
    await _start(fresh, folder, {"endpoint": stand_in.url, "model": "stand-in"})
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, fresh.profile, uri, 1)
    _save(fresh, uri)
    await diagnostics(fresh, fresh.profile, uri, 1)
    await asyncio.sleep(0.5)
    assert stand_in.requests == []
    # the judge command uses the model of the user's settings
    answer = await fresh.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )
    assert answer["ok"] and answer["judge"] == "llm:stand-in" and answer["answered"] == 2


async def test_the_hover_shows_what_the_cli_cached_without_calling_the_model(
    stand_in, fresh, tmp_path, capsys
):
    folder = tmp_path / "ws"
    folder.mkdir()
    _project(folder, judge="lexical")  # the project judges lexically; the user has a model set up
    path, text = _write_run(folder)
    code, out, _err = check_support(
        capsys, path, "llm", "--llm-endpoint", stand_in.url, "--llm-model", "stand-in", output="text"
    )
    assert len(stand_in.requests) == 2 and "llm:stand-in answered 'No Support'" in out
    await _start(fresh, folder, {"endpoint": stand_in.url, "model": "stand-in"})
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, fresh.profile, uri, 1)
    hover = await _hover(fresh, uri, text)
    assert "llm:stand-in" in hover and "unsupported" in hover
    assert len(stand_in.requests) == 2  # the model was not called again


async def test_a_project_file_not_trusted_cannot_name_the_model(stand_in, fresh, tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    _project(
        folder, extra=f'[support_model]\nendpoint = "{stand_in.url}"\nmodel = "theirs"\non_save = true\n'
    )
    path, text = _write_run(folder)
    await _start(fresh, folder, None)
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, fresh.profile, uri, 1)
    _save(fresh, uri)
    answer = await fresh.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.judgeFile", arguments=[uri])
    )
    assert not answer["ok"] and "no model judge is set up" in answer["reason"]
    assert stand_in.requests == []


async def test_a_trusted_project_file_may_name_the_model(stand_in, fresh, tmp_path, capsys):
    from citelens.cli import main

    folder = tmp_path / "ws"
    folder.mkdir()
    _project(folder, extra=f'[support_model]\nendpoint = "{stand_in.url}"\nmodel = "ours"\non_save = true\n')
    assert main(["trust", str(folder / "citelens.toml")]) == 0
    capsys.readouterr()
    path, text = _write_run(folder)
    await _start(fresh, folder, None)
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, fresh.profile, uri, 1)
    assert stand_in.requests == []
    _save(fresh, uri)
    await _until(lambda: len(stand_in.requests) == 2)
    assert {r.body["model"] for r in stand_in.requests} == {"ours"}


async def test_saves_while_it_judges_make_it_judge_once_more_at_the_end(tmp_path, fresh, monkeypatch):
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))
    gate = Gate(Reply("No Support"))  # a slow endpoint: every answer waits for the gate
    with chat_server(gate) as server:
        folder = tmp_path / "ws"
        folder.mkdir()
        _project(folder)
        path, text = _write_run(folder)
        await _start(fresh, folder, {"endpoint": server.url, "model": "stand-in", "on_save": True})
        uri = open_document(fresh, path, text)
        await diagnostics(fresh, fresh.profile, uri, 1)
        try:
            _save(fresh, uri)
            await asyncio.to_thread(server.wait_for_requests, 2)  # held at the endpoint
            # two more sentences, each written and saved while the first judging waits
            for version, sentence in ((2, "Worms eat leaves at night."), (3, "Worms have no eyes.")):
                responses = [(r["text"], r["citations"]) for r in json.loads(text)["responses"]]
                text = _text([*responses, (sentence, ["Earthworm"])])
                fresh.text_document_did_change(
                    types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                    )
                )
                _save(fresh, uri)
            await diagnostics(fresh, fresh.profile, uri, 3)
            assert len(server.requests) == 2  # the first judging still waits; nothing else started
        finally:
            gate.open()

        def judgings() -> list[list]:
            return [r for t, r in fresh.progress_reports.items() if "judge" in str(t)]

        def ended(n: int) -> bool:
            return len(judgings()) >= n and all(r and r[-1].kind == "end" for r in judgings())

        await wait_until(fresh, lambda: ended(2), "the second judging", method=types.PROGRESS)
        # once more, for the two saves: the sentences written meanwhile go to the model
        assert len(server.requests) == 4
        assert any("Worms eat leaves at night." in p for p in server.prompts()[2:])
        assert any("Worms have no eyes." in p for p in server.prompts()[2:])
        await _hover(fresh, uri, text)  # a round trip: a third judging would have begun before it
        assert len(judgings()) == 2 and len(server.requests) == 4
