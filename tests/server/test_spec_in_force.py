"""`citelens.specInForce`: the spec a file is checked with and where it comes from, as the
server resolves it (nested project files, `[[overrides]]` tables, editor settings); the
VS Code status bar shows this answer rather than reading the project file itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from tests.helpers.lsp_session import start
from tests.helpers.workspace_tracks import copy_workspace


@pytest.fixture
def tracks(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


async def _ask(client, path: Path) -> dict:
    answer: dict = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.specInForce", arguments=[path.as_uri()])
    )
    return answer


async def test_each_file_gets_the_spec_of_its_own_override_or_project_file(fresh, tracks):
    await start(fresh, "vscode-utf16-push", tracks)
    pyproject = tracks / "pyproject.toml"
    top = await _ask(fresh, tracks / "rag25" / "baseline.jsonl")
    assert top == {"spec": "rag25", "source": str(pyproject)}
    ragtime = await _ask(fresh, tracks / "ragtime" / "T1_run_1.jsonl")
    assert ragtime["spec"] == "ragtime26"
    assert ragtime["source"].startswith(f"{pyproject} [[tool.citelens.overrides]] #1")

    # a nested project file wins for its folder, and an edit of it is seen on the next ask
    nested = tracks / "ragtime" / "citelens.toml"
    nested.write_text('spec = "ragtime25"\n', encoding="utf-8")
    fresh.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=nested.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert await _ask(fresh, tracks / "ragtime" / "T1_run_1.jsonl") == {
        "spec": "ragtime25",
        "source": str(nested),
    }
    assert await _ask(fresh, tracks / "rag25" / "baseline.jsonl") == top


async def test_no_spec_and_a_broken_project_file_say_so(fresh, tmp_path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "citelens.toml").write_text("spec = [unclosed\n", encoding="utf-8")
    await start(fresh, "vscode-utf16-push", tmp_path)
    assert await _ask(fresh, tmp_path / "plain" / "run.jsonl") == {"spec": None, "source": None}
    broken = await _ask(fresh, tmp_path / "broken" / "run.jsonl")
    assert broken["spec"] is None and "citelens.toml" in broken["error"]
