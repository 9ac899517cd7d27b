"""Hovers on a references entry (the sentences citing it), on a metadata key or value
(what the active spec requires, from its data), and anywhere inside a diagnostic's range
(the rule's summary and documentation link), combined where several apply."""

from __future__ import annotations

import json

from lsprotocol import types
from tests.server.lsp_session import diagnostics, open_document

from citelens.check.catalog import summary
from citelens.source.line_index import LineIndex
from citelens.specs import resolve_spec
from citelens_server.lsp.markdown import escape

DOC_A = "msmarco_v2.1_doc_00_1#1_2"
DOC_B = "msmarco_v2.1_doc_00_3#4_5"
DOC_C = "msmarco_v2.1_doc_00_9#9_9"


def _report() -> dict:
    return {
        "metadata": {
            "team_id": "t",
            "run_id": "r-😀",
            "type": "automatic",
            "narrative_id": "1",
            "narrative": "floods",
            "extra_note": "x",
        },
        "references": [DOC_A, DOC_B, DOC_C],
        "answer": [
            {"text": "Rivers 🌊 <script>alert(1)</script> flood `cities` | a | b |.", "citations": [0, 1]},
            {"text": "Nothing here cites A. " + "long " * 30, "citations": [1]},
            {"text": "No citations at all."},
        ],
    }


async def _open(client, workspace, report: dict, name: str = "fields.jsonl"):
    text = json.dumps(report, ensure_ascii=False) + "\n"
    path = workspace / name
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path, text)
    diags = await diagnostics(client, client.profile, uri, 1)
    return uri, text, diags


async def _hover(client, uri: str, text: str, offset: int) -> types.Hover | None:
    line, ch = LineIndex(text).position(offset, client.profile.encoding)
    return await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(line, ch))
    )


def _range(client, text: str, start: int, end: int) -> types.Range:
    index = LineIndex(text)
    (l1, c1), (l2, c2) = (
        index.position(start, client.profile.encoding),
        index.position(end, client.profile.encoding),
    )
    return types.Range(types.Position(l1, c1), types.Position(l2, c2))


async def test_a_references_entry_lists_the_sentences_citing_it(client, workspace):
    uri, text, _ = await _open(client, workspace, _report())
    entry = json.dumps(DOC_B)
    start = text.index(entry, text.index('"references"'))
    hover = await _hover(client, uri, text, start + 5)
    assert hover is not None and hover.range == _range(client, text, start, start + len(entry))
    value = hover.contents.value
    if hover.contents.kind == types.MarkupKind.Markdown:
        assert "answer[0]" in value and "answer[1]" in value and "answer[2]" not in value
        assert "<script>" not in value and "&lt;script&gt;alert(1)&lt;/script&gt;" in value
        assert "\\`cities\\`" in value and "\\| a \\| b \\|" in value
        assert "…" in value and "long " * 30 not in value  # long sentences are shortened
        assert escape(DOC_B) in value

    # the first entry is cited by the first sentence only
    first = text.index(json.dumps(DOC_A), text.index('"references"'))
    value = (await _hover(client, uri, text, first + 1)).contents.value
    assert "answer[0]" in value and "answer[1]" not in value


async def test_an_uncited_entry_says_so_with_its_diagnostic(vscode, workspace):
    uri, text, diags = await _open(vscode, workspace, _report())
    entry = json.dumps(DOC_C)
    start = text.index(entry, text.index('"references"'))
    (uncited,) = [d for d in diags if d.code == "references_uncited"]
    hover = await _hover(vscode, uri, text, start + len(entry) - 2)
    value = hover.contents.value
    assert "Cited by no sentence" in value
    assert "references_uncited" in value.replace("\\", "")
    assert escape(summary("references_uncited")) in value
    assert uncited.code_description.href in value


async def test_metadata_keys_and_values_say_what_the_spec_requires(vscode, workspace):
    uri, text, _ = await _open(vscode, workspace, _report())

    async def about(probe: str) -> tuple[str, types.Range]:
        at = text.index(probe)
        hover = await _hover(vscode, uri, text, at + 1)
        assert hover is not None, probe
        assert hover.range == _range(vscode, text, at, at + len(probe))  # exactly the key or value
        return hover.contents.value, hover.range

    rag25 = resolve_spec("rag25")
    value, _ = await about('"run_id"')
    assert "required" in value and "run" in value
    assert "run_id" in rag25.mandatory_metadata
    value, _ = await about('"automatic"')  # a value: the same field's requirements
    assert "**type**" in value and "required" in value
    value, _ = await about('"narrative"')
    assert "exact copy of the topic" in value  # rag25 requires the exact narrative
    value, _ = await about('"extra_note"')
    assert "not checked" in value and "required" not in value


async def test_another_spec_gives_other_requirements(vscode, workspace):
    (workspace / "citelens.toml").write_text('spec = "ragtime25"\n', encoding="utf-8")
    report = {
        "metadata": {"team_id": "t", "topic_id": "1", "run_id": "r" * 40, "task": "repgen"},
        "responses": [{"text": "A sentence.", "citations": {}}],
        "references": [],
    }
    uri, text, diags = await _open(vscode, workspace, report, "ragtime.jsonl")
    spec = resolve_spec("ragtime25")
    at = text.index('"rrrr')
    value = (await _hover(vscode, uri, text, at + 3)).contents.value
    assert f"at most {spec.run_id_max_len} characters" in value and "required" in value
    task = (await _hover(vscode, uri, text, text.index('"task"') + 1)).contents.value
    assert "recommended" in task and "task" in spec.recommended_metadata
    # the run id is too long: its diagnostic's rule shows too, with the same link
    (long_id,) = [
        d
        for d in diags
        if d.range.start.character <= LineIndex(text).position(at, "utf-16")[1] + 3 < d.range.end.character
    ]
    assert f"**{escape(long_id.code)}**" in value and long_id.code_description.href in value


async def test_every_position_inside_a_diagnostic_shows_its_rule(vscode, workspace):
    report = _report()
    report["answer"][0]["citations"] = [0, 7]  # an index out of range
    del report["metadata"]["team_id"]
    uri, text, diags = await _open(vscode, workspace, report)
    index = LineIndex(text)
    assert len(diags) >= 3
    for d in diags:
        start = index.offset_at(d.range.start.line, d.range.start.character, "utf-16")
        end = index.offset_at(d.range.end.line, d.range.end.character, "utf-16")
        for at in sorted({start, (start + end) // 2, end - 1}):
            hover = await _hover(vscode, uri, text, at)
            assert hover is not None, (d.code, at)
            value = hover.contents.value
            assert escape(d.code) in value and d.code_description.href in value
            assert escape(summary(d.code)) in value
