"""Completion in run files, each kind through the real server: metadata keys (the spec's
first, those present left out), the spec's allowed values, topic ids from the topics file,
and cited doc ids from `references` and from embedded `documents`, while the report being
typed is not yet valid JSON."""

from __future__ import annotations

import shutil
from pathlib import Path

from lsprotocol import types

from citelens.source.line_index import LineIndex
from tests.helpers.lsp_session import open_document

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _folder(workspace: Path, name: str, spec: str, topics: Path | None = None) -> Path:
    folder = workspace / name
    folder.mkdir()
    toml = f'spec = "{spec}"\n'
    if topics is not None:
        shutil.copy(topics, folder / topics.name)
        toml += f'topics = "{topics.name}"\n'
    (folder / "citelens.toml").write_text(toml, encoding="utf-8")
    return folder


async def _complete(client, path: Path, text: str) -> list[types.CompletionItem]:
    """The items offered with the cursor at the end of `text` (the report being typed)."""
    uri = open_document(client, path, text)
    line, character = LineIndex(text).position(len(text), "utf-16")
    answer = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character)
        )
    )
    return list(answer.items) if answer is not None else []


def _applied(text: str, item: types.CompletionItem) -> str:
    edit = item.text_edit
    index = LineIndex(text)
    start = index.offset_at(edit.range.start.line, edit.range.start.character, "utf-16")
    end = index.offset_at(edit.range.end.line, edit.range.end.character, "utf-16")
    return text[:start] + edit.new_text + text[end:]


async def test_metadata_keys_are_the_specs_and_leave_out_those_present(vscode, workspace):
    folder = _folder(workspace, "dragun", "dragun25-official")
    text = '{"metadata": {"team_id": "t", "ru'
    items = await _complete(vscode, folder / "run.jsonl", text)
    labels = [i.label for i in items]
    assert labels == [
        "run_id",
        "topic_id",
        "type",
        "use_starter_kit",
    ]  # exactly the keys allowed, team_id typed
    assert all(i.detail == "required by dragun25-official" for i in items)
    assert _applied(text, items[0]) == '{"metadata": {"team_id": "t", "run_id"'


async def test_metadata_values_are_the_specs_allowed_values(vscode, workspace):
    folder = _folder(workspace, "values", "dragun25-official")
    text = '{"metadata": {"team_id": "t", "type": '
    items = await _complete(vscode, folder / "run.jsonl", text)
    assert [i.label for i in items] == ['"automatic"', '"manual"']
    assert _applied(text, items[1]).endswith('"type": "manual"')
    text = '{"metadata": {"team_id": "t", "use_starter_kit": '
    assert [i.label for i in await _complete(vscode, folder / "run2.jsonl", text)] == ["0", "1"]


async def test_topic_ids_come_from_the_topics_file(vscode, workspace):
    folder = _folder(workspace, "rag", "rag26", EXAMPLES / "rag26-topics.tsv")
    topic_ids = [
        line.split("\t")[0]
        for line in (EXAMPLES / "rag26-topics.tsv").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    text = '{"metadata": {"team_id": "t", "narrative_id": "rag'
    items = await _complete(vscode, folder / "run.jsonl", text)
    assert [i.label for i in items] == topic_ids
    assert items[0].detail  # the topic's text, to pick by
    assert _applied(text, items[0]).endswith(f'"narrative_id": "{topic_ids[0]}"')


async def test_citations_offer_the_references_and_their_indices(vscode, workspace):
    folder = _folder(workspace, "cite", "rag26")
    text = (
        '{"metadata": {"team_id": "t"}, "references": ["shard_00459_61697", "shard_00007_65846"],'
        ' "answer": [{"text": "A.", "citations": [0, '
    )
    items = await _complete(vscode, folder / "run.jsonl", text)
    assert [(i.label, i.text_edit.new_text) for i in items[:2]] == [("0", "0"), ("1", "1")]
    assert items[1].detail == "references[1] = shard_00007_65846"
    assert {i.label for i in items[2:]} == {"shard_00459_61697", "shard_00007_65846"}


async def test_citations_offer_the_embedded_documents(vscode, workspace):
    folder = _folder(workspace, "kiddie", "kiddie")
    text = (
        '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "leaf"}, "documents": ['
        '{"id": "Chlorophyll", "text": "Chlorophyll is green."}, {"id": "Carotenoid", "text": "Yellow."}],'
        ' "responses": [{"text": "Leaves are green.", "citations": ["Chl'
    )
    items = await _complete(vscode, folder / "run.jsonl", text)
    assert [i.label for i in items] == ["Chlorophyll", "Carotenoid"]
    assert all(i.detail == "embedded document" for i in items)
    assert _applied(text, items[0]).endswith('"citations": ["Chlorophyll"')


async def test_nothing_is_offered_in_sentence_text(vscode, workspace):
    folder = _folder(workspace, "quiet", "rag26")
    text = '{"metadata": {"team_id": "t"}, "answer": [{"text": "Some wor'
    assert await _complete(vscode, folder / "run.jsonl", text) == []
