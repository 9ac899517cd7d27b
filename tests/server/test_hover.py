"""Hovers: the cited document with evidence and verdict, escaped; exact ranges."""

from __future__ import annotations

import json
import re

import pytest
from lsprotocol import types

from citelens.source.line_index import LineIndex
from tests.helpers.lsp_session import ONE_PER_ENCODING, diagnostics, open_document

DOC_A = "msmarco_v2.1_doc_00_1#1_2"
DOC_B = "msmarco_v2.1_doc_00_3#4_5"
EVIL = "<script>alert(1)</script> `rm -rf` | a | b |\n|---|---|\n# not a heading **bold**"


def _report() -> dict:
    return {
        "metadata": {
            "team_id": "t",
            "run_id": "r",
            "narrative_id": "1",
            "narrative": "floods",
            "type": "automatic",
        },
        "references": [DOC_A, DOC_B],
        "answer": [
            {"text": "Rivers flood cities when it rains a lot 😀.", "citations": [0, 1]},
            {"text": "Nothing supports this claim about cats.", "citations": [1]},
        ],
        "documents": {
            DOC_A: {
                "id": DOC_A,
                "title": "Floods " + EVIL,
                "text": "Rivers flood <script>x</script> cities when it | rains | a lot. " + EVIL,
            },
            DOC_B: {"id": DOC_B, "text": "Dogs bark loudly at night."},
        },
    }


def _open(client, workspace):
    text = json.dumps(_report(), ensure_ascii=False) + "\n"
    path = workspace / "hover.jsonl"
    path.write_text(text, encoding="utf-8")
    return open_document(client, path, text), text


def _pos(text: str, offset: int, encoding: str) -> types.Position:
    line, ch = LineIndex(text).position(offset, encoding)
    return types.Position(line, ch)


async def _hover(client, uri, text, offset):
    return await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), _pos(text, offset, client.profile.encoding))
    )


@pytest.mark.parametrize("client", ONE_PER_ENCODING, indirect=True)
async def test_citation_hover_shows_escaped_document_and_evidence(client, workspace):
    uri, text = _open(client, workspace)
    await diagnostics(client, client.profile, uri, 1)
    at = text.index('"citations": [0') + len('"citations": [')
    hover = await _hover(client, uri, text, at)
    assert hover is not None
    value = hover.contents.value
    # the document's id, title and origin; the verdict; matched words in bold
    assert DOC_A in value.replace("\\", "")
    assert "the report" in value
    assert re.search(r"supported|partial", value)
    assert "**" in value.split("> ", 1)[-1], "matched words are marked"
    # the range is exactly the citation token "0"
    assert hover.range == types.Range(
        _pos(text, at, client.profile.encoding), _pos(text, at + 1, client.profile.encoding)
    )
    if hover.contents.kind == types.MarkupKind.Markdown:
        assert "<script>" not in value and "&lt;script&gt;alert(1)&lt;/script&gt;" in value  # the title
        assert "&lt;script&gt;x&lt;/script&gt;" in value  # inside the evidence
        assert "\\`rm -rf\\`" in value and "`rm -rf`" not in value.replace("\\`", "")
        assert "\\| a \\| b \\|" in value
        assert "\\# not a heading \\*\\*bold\\*\\*" in value


async def test_sentence_hover_lists_its_citations(vscode, workspace):
    uri, text = _open(vscode, workspace)
    await diagnostics(vscode, vscode.profile, uri, 1)
    at = text.index("Nothing supports")
    hover = await _hover(vscode, uri, text, at + 3)
    assert hover is not None
    value = hover.contents.value.replace("\\", "")
    assert "Sentence 2" in value and DOC_B in value
    assert "unsupported" in value


async def test_diagnostic_hover_links_the_rule(vscode, workspace):
    text = '{"metadata": {"team_id": "t"}, "answer": []}\n'
    path = workspace / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    uri = open_document(vscode, path, text)
    diags = await diagnostics(vscode, vscode.profile, uri, 1)
    assert diags
    d = diags[0]
    hover = await vscode.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), d.range.start)
    )
    assert hover is not None
    assert f"**{d.code}**" in hover.contents.value
    assert d.code_description.href in hover.contents.value


async def test_plain_text_clients_get_plain_text(lsp_client_plain, workspace):
    client = lsp_client_plain
    uri, text = _open(client, workspace)
    await diagnostics(client, client.profile, uri, 1)
    at = text.index('"citations": [0') + len('"citations": [')
    hover = await _hover(client, uri, text, at)
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert "<script>alert(1)</script>" in hover.contents.value  # shown as it is, nothing to escape
    assert "**partial**" not in hover.contents.value and "**supported**" not in hover.contents.value
    assert "[[" in hover.contents.value  # the matched words, marked without Markdown
