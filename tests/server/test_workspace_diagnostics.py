"""Workspace diagnostics: every run file's findings, open or not, for pull clients
(`workspace/diagnostic` with result ids and `unchanged`) and for push clients (published
by `citelens.checkWorkspace`, withdrawn and restored correctly)."""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers.editor_runs import write_run
from tests.helpers.lsp_session import (
    PROFILES,
    TIMEOUT,
    as_tuples,
    diagnostics,
    expected_diagnostics,
    install_version_tracking,
    open_document,
    wait_until,
)


def _runs(workspace, n: int = 3) -> dict[str, tuple]:
    """n run folders with a faulty run each: uri -> (path, text)."""
    runs = {}
    for k in range(n):
        folder = workspace / f"r{k}"
        folder.mkdir()
        path, text = write_run(folder)
        runs[path.as_uri()] = (path, text)
    return runs


async def _start_pull(client: LanguageClient, folder) -> types.InitializeResult:
    caps_factory, _, _ = PROFILES["pull-diagnostics"]
    caps = caps_factory()
    caps.workspace.configuration = False  # settings come from the project file only: no re-check races
    install_version_tracking(client)
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            initialization_options={"debounceMs": 0},
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
        )
    )


async def _pull(client: LanguageClient, previous: dict[str, str]) -> types.WorkspaceDiagnosticReport:
    return await asyncio.wait_for(
        client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(
                previous_result_ids=[types.PreviousResultId(uri=u, value=v) for u, v in previous.items()]
            )
        ),
        TIMEOUT,
    )


def _by_uri(report: types.WorkspaceDiagnosticReport) -> dict[str, object]:
    return {item.uri: item for item in report.items}


async def test_workspace_pull_reports_every_run_then_only_what_changed(fresh, workspace):
    result = await _start_pull(fresh, workspace)
    assert result.capabilities.diagnostic_provider.workspace_diagnostics is True
    runs = _runs(workspace)
    # one run is open with an edit the disk does not have
    open_uri = next(iter(runs))
    open_path, disk_text = runs[open_uri]
    edited = disk_text.replace('"citations": [7]', '"citations": [1]', 1)
    assert edited != disk_text
    open_document(fresh, open_path, edited)

    # JSON files that hold no reports stay out of the Problems panel; a JSON array of reports is in
    (workspace / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n', encoding="utf-8")
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text('{"citelens.spec": "rag25"}\n', encoding="utf-8")
    # a topics file is read by the checks, not checked as a run
    (workspace / "t").mkdir()
    (workspace / "t" / "citelens.toml").write_text('spec = "rag25"\ntopics = "topics.jsonl"\n', "utf-8")
    (workspace / "t" / "topics.jsonl").write_text('{"request_id": "1", "title": "floods"}\n', "utf-8")
    array_path = workspace / "reports.json"
    array_text = '[{"metadata": {"run_id": "r"}, "answer": []}]\n'
    array_path.write_text(array_text, encoding="utf-8")

    first = _by_uri(await _pull(fresh, {}))
    assert set(first) == set(runs) | {array_path.as_uri()}
    assert as_tuples(first[array_path.as_uri()].items) == expected_diagnostics(
        array_path, array_text, "utf-16"
    )
    for uri, (path, text) in runs.items():
        report = first[uri]
        assert report.kind == "full" and report.result_id
        if uri == open_uri:
            assert report.version == 1
            open_path.write_text(edited, encoding="utf-8")  # the CLI reads the editor's text
            assert as_tuples(report.items) == expected_diagnostics(open_path, edited, "utf-16")
            open_path.write_text(disk_text, encoding="utf-8")
        else:
            assert report.version is None
            assert report.items and as_tuples(report.items) == expected_diagnostics(path, text, "utf-16")

    # nothing changed: the request is held; a file changes on disk and the watcher says so
    previous = {uri: item.result_id for uri, item in first.items()}
    pending = asyncio.ensure_future(_pull(fresh, previous))
    await asyncio.sleep(0.3)
    assert not pending.done(), "an unchanged workspace was answered at once (VS Code re-asks every 2 s)"
    changed_uri = list(runs)[1]
    changed_path, _ = runs[changed_uri]
    fixed = '{"metadata": {"run_id": "r"}, "answer": []}\n'
    changed_path.write_text(fixed, encoding="utf-8")
    gone_uri = list(runs)[2]
    runs[gone_uri][0].unlink()
    fresh.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=changed_uri, type=types.FileChangeType.Changed),
                types.FileEvent(uri=gone_uri, type=types.FileChangeType.Deleted),
            ]
        )
    )
    second = _by_uri(await pending)
    assert second[open_uri].kind == "unchanged" and second[open_uri].result_id == previous[open_uri]
    assert second[changed_uri].kind == "full"
    assert as_tuples(second[changed_uri].items) == expected_diagnostics(changed_path, fixed, "utf-16")
    assert second[gone_uri].kind == "full" and list(second[gone_uri].items) == []  # withdrawn
    assert fresh.diagnostics == {}  # nothing was pushed to the pull client


async def test_check_workspace_publishes_unopened_runs_for_push_clients(vscode, workspace):
    runs = _runs(workspace)
    result = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.checkWorkspace", arguments=[])
    )
    assert len(result["files"]) == 3

    def shown(uri: str, path, text: str) -> bool:
        return as_tuples(vscode.diagnostics.get(uri, [])) == expected_diagnostics(path, text, "utf-16")

    await wait_until(vscode, lambda: all(shown(u, p, t) for u, (p, t) in runs.items()), "workspace findings")

    # open one, fix it in the editor, close it unsaved: the findings on disk come back
    uri = next(iter(runs))
    path, text = runs[uri]
    open_document(vscode, path, '{"metadata": {}, "answer": []}\n')
    await diagnostics(vscode, vscode.profile, uri, 1)
    assert not shown(uri, path, text)
    vscode.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    await wait_until(vscode, lambda: shown(uri, path, text), "the disk findings after closing")

    # a run that is gone is withdrawn by the next workspace check
    gone_uri = list(runs)[1]
    runs[gone_uri][0].unlink()
    await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.checkWorkspace", arguments=[])
    )
    await wait_until(vscode, lambda: list(vscode.diagnostics.get(gone_uri, [1])) == [], "withdrawn findings")
    assert shown(list(runs)[2], *runs[list(runs)[2]])
