"""A participant's workspace (two tracks, their topics, a corpus sample, nuggets, excluded
and git-ignored folders) through the language server: exactly the runs `citelens check .`
checks, each with its own folder's settings, file by file the same findings; nothing on
the other files, even when they are open."""

from __future__ import annotations

import asyncio
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from lsprotocol import types

from citelens.cli import main
from citelens.source.line_index import LineIndex
from tests.helpers.lsp_session import (
    PROFILES,
    TIMEOUT,
    as_tuples,
    install_version_tracking,
    open_document,
    start,
)
from tests.helpers.workspace_tracks import RUNS, copy_workspace


@pytest.fixture
def tracks(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


def cli_by_file(root: Path) -> dict[str, list[tuple]]:
    """`citelens check --format json ROOT`, as (code, severity, message, start, end) per file,
    positions in UTF-16 as the client gets them."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["check", "--format", "json", str(root)])
    by_file: dict[str, list[tuple]] = {uri: [] for uri in (root.joinpath(r).as_uri() for r in RUNS)}
    for f in json.loads(out.getvalue())["findings"]:
        path = Path(f["path"]).absolute()
        index = LineIndex(path.read_text(encoding="utf-8"))
        start = index.starts[f["line"] - 1] + f["column"] - 1
        end = index.starts[f["end_line"] - 1] + f["end_column"] - 1
        by_file[path.as_uri()].append(
            (
                f["code"],
                f["severity"],
                f["message"],
                index.position(start, "utf-16"),
                index.position(end, "utf-16"),
            )
        )
    return {uri: sorted(items) for uri, items in by_file.items()}


async def test_pull_client_gets_the_clis_findings_file_by_file(fresh, tracks):
    caps = PROFILES["pull-diagnostics"][0]()
    caps.workspace.configuration = False
    install_version_tracking(fresh)
    await fresh.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            initialization_options={"debounceMs": 0},
            workspace_folders=[types.WorkspaceFolder(uri=tracks.as_uri(), name="ws")],
        )
    )
    report = await asyncio.wait_for(
        fresh.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), TIMEOUT
    )
    got = {item.uri: as_tuples(item.items) for item in report.items}
    assert got == cli_by_file(tracks)


async def test_check_all_runs_lists_each_run_with_its_own_spec(fresh, tracks):
    await start(fresh, "vscode-utf16-push", tracks)
    topics = tracks / "rag25" / "topics.jsonl"
    open_document(fresh, topics, topics.read_text(encoding="utf-8"))  # open, yet not a run
    summary = await asyncio.wait_for(
        fresh.workspace_execute_command_async(types.ExecuteCommandParams(command="citelens.checkWorkspace")),
        TIMEOUT,
    )
    files = {f["uri"]: f for f in summary["files"]}
    assert set(files) == {tracks.joinpath(r).as_uri() for r in RUNS}
    assert files[tracks.joinpath("rag25/baseline.jsonl").as_uri()]["spec"] == "rag25"
    assert files[tracks.joinpath("ragtime/T1_run_1.jsonl").as_uri()]["spec"] == "ragtime26"
    assert summary["summary"] == "1 error, 0 warnings in 2 files (4 reports)"  # the CLI's line for `check .`
    want = cli_by_file(tracks)
    for uri, items in want.items():
        if items:
            assert as_tuples(fresh.diagnostics.get(uri, [])) == items
    assert set(fresh.diagnostics) <= set(want)  # nothing on topics, corpus, nuggets, excluded files
