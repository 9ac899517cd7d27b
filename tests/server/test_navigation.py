"""Navigation and long work: definition, references, symbols, inlay hints, folding;
checking the workspace with progress, and cancelling it."""

from __future__ import annotations

import json

from lsprotocol import types

from citelens.source.line_index import LineIndex
from tests.helpers.editor_runs import DOC_A, DOC_B, hover_offset, write_run
from tests.helpers.lsp_session import diagnostics, open_document


def _pos(text: str, offset: int) -> types.Position:
    line, ch = LineIndex(text).position(offset, "utf-16")
    return types.Position(line, ch)


def _ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _opened(vscode, workspace):
    path, text = write_run(workspace)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    return uri, text


async def test_definition_selects_the_evidence_in_the_embedded_document(vscode, workspace):
    uri, text = await _opened(vscode, workspace)
    locations = await vscode.text_document_definition_async(
        types.DefinitionParams(text_document=_ident(uri), position=_pos(text, hover_offset(text)))
    )
    (loc,) = locations
    index = LineIndex(text)
    start = index.offset_at(loc.range.start.line, loc.range.start.character, "utf-16")
    end = index.offset_at(loc.range.end.line, loc.range.end.character, "utf-16")
    embedded = text.index("Rivers flood cities when it rains a lot.")  # DOC_A's text in the report
    assert loc.uri == uri
    assert embedded <= start < end <= embedded + len("Rivers flood cities when it rains a lot.")
    assert "flood cities" in text[start:end]
    assert json.loads(text.splitlines()[0])["documents"][DOC_A]["text"].find(text[start:end]) >= 0


async def test_references_list_every_citing_sentence(vscode, workspace):
    uri, text = await _opened(vscode, workspace)
    at = text.index(f'"{DOC_B}"') + 2  # the references entry of the first report
    refs = await vscode.text_document_references_async(
        types.ReferenceParams(
            text_document=_ident(uri),
            position=_pos(text, at),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    # report 1 cites DOC_B as index 2; report 2 as index 0
    starts = sorted((r.range.start.line, r.range.start.character) for r in refs)
    want = sorted(
        (p.line, p.character)
        for p in (
            _pos(text, text.index('"citations": [0, 2]') + len('"citations": [0, ')),
            _pos(text, text.rindex('"citations": [0]') + len('"citations": [')),
        )
    )
    assert starts == want


async def test_symbols_inlay_hints_and_folding(vscode, workspace):
    uri, text = await _opened(vscode, workspace)
    symbols = await vscode.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=_ident(uri))
    )
    assert [s.name for s in symbols] == ["23287", "23288"]
    assert [len(s.children) for s in symbols] == [2, 1]
    assert "run-😀-漢字" in symbols[0].detail and "3 citations" in symbols[0].detail

    found = await vscode.workspace_symbol_async(types.WorkspaceSymbolParams(query="2328"))
    assert sorted(s.name for s in found) == ["23287", "23288"]

    end = LineIndex(text).position(len(text), "utf-16")
    hints = await vscode.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=_ident(uri), range=types.Range(types.Position(0, 0), types.Position(*end))
        )
    )
    labels = [h.label for h in hints]
    assert labels.count(f"→ {DOC_A}") == 1 and labels.count(f"→ {DOC_B}") == 2
    first = min(hints, key=lambda h: (h.position.line, h.position.character))
    assert first.position == _pos(text, hover_offset(text) + 1)  # right after the index

    pretty = json.dumps(json.loads(text.splitlines()[0]), indent=2, ensure_ascii=False) + "\n"
    path = workspace / "pretty.json"
    path.write_text(pretty, encoding="utf-8")
    puri = open_document(vscode, path, pretty)
    await diagnostics(vscode, vscode.profile, puri, 1)
    folds = await vscode.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=_ident(puri))
    )
    assert [(f.start_line, f.end_line) for f in folds] == [(0, pretty.count("\n") - 1)]


async def test_check_workspace_reports_progress_and_publishes(client, workspace):
    for n in range(3):
        (workspace / f"r{n}").mkdir()
        write_run(workspace / f"r{n}")
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.checkWorkspace", arguments=[])
    )
    assert len(result["files"]) == 3 and not result["cancelled"]
    assert all(f["errors"] == 2 for f in result["files"])
    if client.capabilities.window and client.capabilities.window.work_done_progress:
        (reports,) = client.progress_reports.values()
        assert reports[0].kind == "begin" and reports[-1].kind == "end"
        assert [r.percentage for r in reports if r.kind == "report"] == [33, 66, 100]


async def test_cancelling_the_workspace_check_stops_it(vscode, workspace):
    # enough runs that the check is still going when the cancel arrives, on an idle
    # machine too (with 40, an idle machine finished before the client's cancel came in)
    runs = 400
    for n in range(runs):
        (workspace / f"r{n}").mkdir()
        write_run(workspace / f"r{n}")
    import asyncio

    pending = asyncio.ensure_future(
        vscode.workspace_execute_command_async(
            types.ExecuteCommandParams(command="citelens.checkWorkspace", arguments=[])
        )
    )

    async def started() -> None:
        while not vscode.progress_reports or len(next(iter(vscode.progress_reports.values()))) < 2:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(started(), 30)
    (token,) = vscode.progress_reports
    vscode.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    result = await pending
    assert result["cancelled"] and len(result["files"]) < runs
    assert vscode.progress_reports[token][-1].kind == "end"
