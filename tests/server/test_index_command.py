"""`citelens.indexCorpus`: the engine's indexer in a worker thread, with progress and
cancellation; the server answers hovers meanwhile; a cancelled build resumes to the
index an uninterrupted build makes."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest
from lsprotocol import types

from citelens.corpus import IndexSource
from citelens.corpus.index_build import build_index
from citelens.source.line_index import LineIndex
from tests.helpers.editor_runs import hover_offset, write_run
from tests.helpers.lsp_session import diagnostics, open_document

#: documents in the generated corpus: enough that a build takes a few seconds on this machine
DOCS = 150_000


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _corpus(folder: Path, n: int = DOCS) -> Path:
    path = folder / "generated.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            out.write(
                json.dumps(
                    {"id": f"doc-{i}", "title": f"Title {i}", "text": f"Body number {i} of the corpus."}
                )
            )
            out.write("\n")
    return path


def _contents(db: Path) -> tuple[list, list]:
    con = sqlite3.connect(db)
    try:
        docs = con.execute("SELECT id, line, raw FROM docs ORDER BY id").fetchall()
        files = con.execute(
            "SELECT path, size, consumed, lines, docs, complete FROM files ORDER BY path"
        ).fetchall()
    finally:
        con.close()
    return docs, files


async def _index(client, *arguments):
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.indexCorpus", arguments=list(arguments))
    )


async def test_indexing_reports_progress_and_builds_a_usable_index(vscode, workspace):
    corpus = _corpus(workspace, 20_000)
    db = workspace / "idx.sqlite"
    result = await _index(vscode, [corpus.as_uri()], str(db))
    assert result["ok"] and not result["cancelled"] and result["documents"] == 20_000
    (reports,) = vscode.progress_reports.values()
    assert reports[0].kind == "begin" and reports[0].cancellable
    assert reports[-1].kind == "end" and "20,000 documents" in reports[-1].message
    middle = [r for r in reports if r.kind == "report"]
    assert middle and all("docs/s" in r.message for r in middle)
    assert all(0 <= (r.percentage or 0) <= 100 for r in middle)
    source = IndexSource(db)
    try:
        assert source.incomplete_reason() is None
        assert source.get_many(["doc-19999"]).documents["doc-19999"].title == "Title 19999"
    finally:
        source.close()


async def test_bad_arguments_are_said_not_raised(vscode, workspace):
    assert (await _index(vscode))["reason"].startswith("name the corpus")
    answer = await _index(vscode, [str(workspace / "nothing-here.jsonl")])
    assert not answer["ok"] and "nothing-here.jsonl" in answer["reason"]


async def test_cancel_stops_the_build_and_a_second_run_resumes_it(vscode, workspace, tmp_path):
    corpus = _corpus(workspace)
    db = workspace / "idx.sqlite"
    # a run open in the editor: its hover must be answered while the index is built
    path, text = write_run(workspace)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    line, ch = LineIndex(text).position(hover_offset(text), "utf-16")
    hover_params = types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(line, ch))
    assert await vscode.text_document_hover_async(hover_params) is not None  # warm

    pending = asyncio.ensure_future(_index(vscode, [str(corpus)], str(db)))

    async def reported() -> None:
        while not vscode.progress_reports or not any(
            r.kind == "report" and r.message and not r.message.startswith("0 ")
            for r in next(iter(vscode.progress_reports.values()))
        ):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(reported(), 60)
    hover = await vscode.text_document_hover_async(hover_params)
    assert hover is not None and not pending.done(), "the hover waited for the build"
    (token,) = vscode.progress_reports
    vscode.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    first = await asyncio.wait_for(pending, 60)
    assert first["cancelled"] and not first["ok"]
    assert vscode.progress_reports[token][-1].kind == "end"
    partial = IndexSource(db)
    try:
        assert partial.incomplete_reason() is not None  # never taken for complete
    finally:
        partial.close()
    docs_after_cancel = len(_contents(db)[0])
    assert docs_after_cancel < DOCS

    second = await asyncio.wait_for(_index(vscode, [str(corpus)], str(db)), 120)
    assert second["ok"] and second["documents"] == DOCS
    assert second["added"] == DOCS - docs_after_cancel  # resumed, not read again from the start
    assert [f["action"] for f in second["files"]] == ["resumed"]

    reference = tmp_path / "uninterrupted.sqlite"
    build_index([corpus], reference)
    assert _contents(db) == _contents(reference)
