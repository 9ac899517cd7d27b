"""Cited documents from the configured corpora: hovers show them with their origin, the
verdict is the support judge's (the one `citelens check --support` reports), go to
definition opens the corpus line or a `citelens-doc:` view with the evidence selected."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from citelens.session import Workspace
from citelens.source.line_index import LineIndex
from tests.helpers.indexed_corpus import indexed_corpus
from tests.helpers.lsp_session import (
    ONE_PER_ENCODING,
    PROFILES,
    SERVER_COMMAND,
    diagnostics,
    open_document,
    start,
)

DATA = Path(__file__).parents[1] / "data"
SEGMENTED = DATA / "documents" / "msmarco_v2.1_doc_segmented.sample.jsonl"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """The server (started after this) keeps corpus indexes in a cache of the test's own."""
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _corpus_records() -> list[dict]:
    return [json.loads(line) for line in SEGMENTED.read_text(encoding="utf-8").splitlines() if line.strip()]


def _sentence_from(segment: str) -> str:
    """A sentence built from words of the segment, so the judge finds evidence."""
    words = [w for w in segment.split() if w.isalpha() and len(w) > 3]
    return " ".join(words[2:12]) + "."


def _write_workspace(folder: Path, corpus_source: str) -> tuple[Path, str, dict]:
    """A rag25 run citing the second corpus record (not embedded), and the project file
    naming the corpus source."""
    records = _corpus_records()
    cited = records[1]
    report = {
        "metadata": {
            "team_id": "t",
            "run_id": "r",
            "narrative_id": "1",
            "narrative": "a question",
            "type": "automatic",
        },
        "references": [cited["docid"]],
        "answer": [{"text": _sentence_from(cited["segment"]), "citations": [0]}],
    }
    (folder / "citelens.toml").write_text(
        f'spec = "rag25"\ncorpora = [{json.dumps(corpus_source)}]\n', encoding="utf-8"
    )
    text = json.dumps(report, ensure_ascii=False) + "\n"
    path = folder / "cites-corpus.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text, cited


def _pos(text: str, offset: int, encoding: str = "utf-16") -> types.Position:
    line, ch = LineIndex(text).position(offset, encoding)
    return types.Position(line, ch)


def _ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _citation_offset(text: str) -> int:
    return text.index('"citations": [0') + len('"citations": [')


@pytest.mark.parametrize("client", ONE_PER_ENCODING, indirect=True)
async def test_hover_shows_a_document_only_in_the_configured_index(client, workspace):
    corpus = indexed_corpus(workspace)
    path, text, cited = _write_workspace(workspace, "index:corpus.idx")
    uri = open_document(client, path, text)
    found = await diagnostics(client, client.profile, uri, 1)
    assert not [d for d in found if d.code == "unknown_document"]
    hover = await client.text_document_hover_async(
        types.HoverParams(_ident(uri), _pos(text, _citation_offset(text), client.profile.encoding))
    )
    assert hover is not None
    value = hover.contents.value.replace("\\", "")
    assert cited["docid"] in value
    assert cited["title"].split()[0] in value
    assert f"{corpus}:2" in value  # the origin: the corpus file and the record's line
    assert "not at hand" not in value
    assert any(v in value for v in ("supported", "partial", "unsupported"))


async def test_a_document_in_no_source_says_which_sources_were_asked(vscode, workspace):
    indexed_corpus(workspace)
    path, text, _ = _write_workspace(workspace, "index:corpus.idx")
    text = text.replace("msmarco_v2.1_doc_", "msmarco_v2.1_doc_9", 1)
    path.write_text(text, encoding="utf-8")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    hover = await vscode.text_document_hover_async(
        types.HoverParams(_ident(uri), _pos(text, _citation_offset(text)))
    )
    value = hover.contents.value.replace("\\", "")
    assert "corpus.idx" in value and "neither the report nor" in value
    assert "unchecked" in value and "not available" in value


async def test_definition_opens_the_corpus_line_with_the_evidence_selected(vscode, workspace):
    corpus = indexed_corpus(workspace)
    path, text, cited = _write_workspace(workspace, "index:corpus.idx")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    (loc,) = await vscode.text_document_definition_async(
        types.DefinitionParams(_ident(uri), _pos(text, _citation_offset(text)))
    )
    assert loc.uri == corpus.as_uri()
    assert loc.range.start.line == 1 == loc.range.end.line  # the second record
    line = corpus.read_text(encoding="utf-8").splitlines()[1]
    index = LineIndex(line)
    selected = line[
        index.offset_at(0, loc.range.start.character, "utf-16") : index.offset_at(
            0, loc.range.end.character, "utf-16"
        )
    ]
    literal = json.dumps(cited["segment"], ensure_ascii=False)
    at = line.index(literal)
    start = index.offset_at(0, loc.range.start.character, "utf-16")
    assert at < start and start + len(selected) < at + len(literal)  # inside the segment text
    words = set(_sentence_from(cited["segment"]).rstrip(".").split())
    assert selected.split()[0].strip(",.") in words and selected.split()[-1].strip(",.") in words


def _virtual_caps() -> types.ClientCapabilities:
    caps = PROFILES["vscode-utf16-push"][0]()
    caps.experimental = {"citelensDocuments": True}
    return caps


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def virtual(lsp_client: LanguageClient, workspace):
    """A VS Code-like client that shows `citelens-doc:` documents."""
    lsp_client.profile = await start(lsp_client, "vscode-utf16-push", workspace, capabilities=_virtual_caps())
    yield lsp_client
    await asyncio.wait_for(lsp_client.shutdown_session(), 10)


async def test_definition_of_a_compressed_corpus_document_is_a_virtual_document(virtual, workspace):
    corpus = workspace / "corpus.jsonl.gz"
    corpus.write_bytes(gzip.compress(SEGMENTED.read_bytes()))
    path, text, cited = _write_workspace(workspace, "corpus.jsonl.gz")
    uri = open_document(virtual, path, text)
    await diagnostics(virtual, virtual.profile, uri, 1)
    at = _pos(text, _citation_offset(text))
    (loc,) = await virtual.text_document_definition_async(types.DefinitionParams(_ident(uri), at))
    parsed = urlparse(loc.uri)
    assert parsed.scheme == "citelens-doc"
    where = json.loads(unquote(parsed.query))
    assert where == {"uri": uri, "line": at.line, "character": at.character}
    # the content comes from the show-document command the URI names
    shown = await virtual.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="citelens.showDocument", arguments=[where["uri"], where["line"], where["character"]]
        )
    )
    assert shown["id"] == cited["docid"] and shown["text"] == cited["segment"]
    assert shown["content"].endswith(cited["segment"]) and f"title: {cited['title']}" in shown["content"]
    content = LineIndex(shown["content"])
    rng = loc.range
    start = content.offset_at(rng.start.line, rng.start.character, "utf-16")
    end = content.offset_at(rng.end.line, rng.end.character, "utf-16")
    selected = shown["content"][start:end]
    body = len(shown["content"]) - len(cited["segment"])
    assert start >= body and selected in cited["segment"]  # in the document's text, not the header
    words = set(_sentence_from(cited["segment"]).rstrip(".").split())
    assert selected.split()[0].strip(",.") in words and selected.split()[-1].strip(",.") in words
    assert shown["selection"] == {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


async def test_clients_without_virtual_documents_get_no_citelens_doc_location(vscode, workspace):
    corpus = workspace / "corpus.jsonl.gz"
    corpus.write_bytes(gzip.compress(SEGMENTED.read_bytes()))
    path, text, _ = _write_workspace(workspace, "corpus.jsonl.gz")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    answer = await vscode.text_document_definition_async(
        types.DefinitionParams(_ident(uri), _pos(text, _citation_offset(text)))
    )
    assert not answer


# --- the hover's verdict is the support judge's -----------------------------------------


def _cli_support(path: Path) -> dict:
    from citelens.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        main(
            [
                "check",
                "--support",
                "--executor",
                "serial",
                "--support-cache",
                "none",
                "--format",
                "json",
                str(path),
            ]
        )
    return json.loads(out.getvalue())["support"][0]


def _citation_tokens(path: Path, text: str) -> list[tuple[int, int, int, int]]:
    """(report, sentence, citation, offset) of every citation token, by the session API."""
    ws = Workspace([path.parent])
    doc = ws.open(path, text)
    out = []
    for item in doc.items:
        for sentence in doc.sentences(item.index):
            for k, c in enumerate(sentence.citations):
                out.append((item.index, sentence.index, k, c.start))
    return out


async def test_hover_verdicts_equal_the_cli_support_verdicts(vscode, workspace):
    run = (DATA / "runs" / "kiddie_run2.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    missing = json.loads(run[0])
    missing["responses"] = [{"text": "Leaves are green in summer.", "citations": ["No_such_page"]}]
    text = "\n".join([*run, json.dumps(missing)]) + "\n"
    (workspace / "citelens.toml").write_text('spec = "kiddie"\n', encoding="utf-8")
    path = workspace / "kiddie.jsonl"
    path.write_text(text, encoding="utf-8")
    expected = _cli_support(path)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    tokens = _citation_tokens(path, text)
    assert len(tokens) >= 8
    seen = set()
    for report, sentence, k, offset in tokens:
        cli = expected["reports"][report]["sentences"][sentence]["citations"][k]
        hover = await vscode.text_document_hover_async(types.HoverParams(_ident(uri), _pos(text, offset)))
        value = hover.contents.value.replace("\\", "")
        verdicts = [v for v in ("unsupported", "supported", "partial", "unchecked") if f"**{v}**" in value]
        assert verdicts == [cli["verdict"]], (report, sentence, value)
        if cli["verdict"] == "unchecked":
            assert (
                "the cited document is not available" in value and cli["reason"] == "document_not_available"
            )
        else:
            assert f"support score {cli['score']:.2f}" in value
        seen.add(cli["verdict"])
    assert {"partial", "unsupported", "unchecked"} <= seen
