"""`citelens.runOverview`: the overview page for the editor's webview, from the session's
settings; an open file is summed up as the editor holds it, unsaved edits included."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from lsprotocol import types

from tests.helpers.lsp_session import diagnostics, open_document

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


async def _overview(client, *arguments):
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.runOverview", arguments=list(arguments))
    )


def _data(html: str) -> dict:
    return json.loads(re.search(r'id="overview-data">(.*?)</script>', html, re.S).group(1))


async def test_the_page_of_a_file_a_folder_and_the_workspace(vscode, workspace):
    runs = workspace / "runs"
    runs.mkdir()
    shutil.copy(EXAMPLES / "rag26-with-mistakes.jsonl", runs / "a.jsonl")
    shutil.copy(EXAMPLES / "rag26-with-mistakes.jsonl", workspace / "b.jsonl")
    answer = await _overview(vscode, [(runs / "a.jsonl").as_uri()])
    assert answer["runs"] == [str(runs / "a.jsonl")]
    (run,) = _data(answer["html"])["runs"]
    assert run["spec"] == "rag25" and run["reports"] == 3  # the workspace's citelens.toml
    assert "Content-Security-Policy" in answer["html"]
    folder = await _overview(vscode, [runs.as_uri()])
    assert folder["runs"] == [str(runs / "a.jsonl")]
    everything = await _overview(vscode)
    assert sorted(everything["runs"]) == sorted([str(runs / "a.jsonl"), str(workspace / "b.jsonl")])


async def test_an_open_file_is_summed_up_as_the_editor_holds_it(vscode, workspace):
    path = workspace / "a.jsonl"
    shutil.copy(EXAMPLES / "rag26-with-mistakes.jsonl", path)
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    uri = open_document(vscode, path, first_line + "\n")  # unsaved: one report left
    await diagnostics(vscode, vscode.profile, uri, 1)
    answer = await _overview(vscode, [path.as_uri()])
    assert _data(answer["html"])["runs"][0]["reports"] == 1
    assert path.read_text(encoding="utf-8").count("\n") == 3  # the disk is untouched


async def test_nothing_to_sum_up_is_a_reason_not_an_error(vscode, workspace):
    answer = await _overview(vscode, [(workspace / "missing.jsonl").as_uri()])
    assert answer["html"] is not None and answer["runs"] == [] and "missing.jsonl" in answer["problems"][0]
