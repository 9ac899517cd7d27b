"""The cited document and its evidence, as the engine gives them to an editor: sources
opened once per settings and closed when the settings change; the evidence placed in the
file that holds the document, escapes and all, or in a rendered view."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from citelens.corpus.index_build import build_index
from citelens.session import Workspace
from citelens.session.cited import cited_evidence, evidence_place, render
from citelens.source.json_string_map import raw_offsets

DOC_TEXT = 'Earthworms "live" in soil\nand make tunnels — café 😀 underground.'
SENTENCE = "Earthworms live in soil and make tunnels underground."


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))


def _run(doc_id: str, embedded: bool) -> str:
    report = {"responses": [{"text": SENTENCE, "citations": [doc_id]}]}
    if embedded:
        report["documents"] = {doc_id: {"id": doc_id, "title": "Worms", "text": DOC_TEXT}}
    return json.dumps(report, ensure_ascii=True) + "\n"


@pytest.mark.parametrize("text", ["plain", 'q"uote\\back/slash', "é 😀 \u2028 \n\t end", ""])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_raw_offsets_map_each_character_to_its_place_in_the_literal(text: str, ascii_only: bool) -> None:
    literal = json.dumps(text, ensure_ascii=ascii_only)
    offsets = raw_offsets(literal)
    assert offsets is not None and len(offsets) == len(text) + 1
    for i, ch in enumerate(text):
        assert json.loads('"' + literal[offsets[i] : offsets[i + 1]] + '"') == ch


def test_raw_offsets_refuse_what_is_not_a_string_literal() -> None:
    assert raw_offsets("abc") is None and raw_offsets('"bad \\x escape"') is None


def test_embedded_evidence_is_selected_in_the_report_through_its_escapes(tmp_path: Path) -> None:
    text = _run("Earthworm", embedded=True)
    ws = Workspace([tmp_path])
    doc = ws.open(tmp_path / "run.jsonl", text)
    cited = cited_evidence(doc, text.index('"Earthworm"]') + 1)
    assert cited is not None and cited.document is not None and cited.verdict is not None
    assert cited.document.origin == "the report's documents" and cited.document.title == "Worms"
    place = evidence_place(doc, cited)
    assert place is not None and place.path is None
    shown = json.loads('"' + text[place.start : place.end] + '"')  # the selected JSON text, decoded
    pieces = [e.text for e in cited.verdict.evidence]
    assert shown.startswith(pieces[0]) and shown.endswith(pieces[-1])
    assert shown in DOC_TEXT


def test_corpus_documents_come_from_one_shared_chain_closed_when_settings_change(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"docno": "other", "text": "nothing"})
        + "\n"
        + json.dumps({"docno": "Earthworm", "text": DOC_TEXT}, ensure_ascii=False)
        + "\n",
        encoding="utf-8",
    )
    build_index([corpus], tmp_path / "idx.sqlite")
    (tmp_path / "citelens.toml").write_text('corpora = ["index:idx.sqlite"]\n', encoding="utf-8")
    text = _run("Earthworm", embedded=False)
    ws = Workspace([tmp_path])
    doc = ws.open(tmp_path / "run.jsonl", text)
    cited = cited_evidence(doc, text.index('"Earthworm"]') + 1)
    assert cited is not None and cited.document is not None
    assert cited.document.origin == f"{corpus}:2" and cited.document.line == 2
    chain = ws.sources_for(doc.settings)
    assert chain is ws.sources_for(doc.settings) is doc.checker.sources  # one chain, shared
    index_source = chain.sources[0]
    assert index_source._reader is not None  # opened by the lookup
    # the evidence on the corpus file's line, through the escapes of the record
    place = evidence_place(doc, cited)
    assert place is not None and place.path == corpus and place.line == 1
    line = corpus.read_text(encoding="utf-8").splitlines()[1]
    assert place.text == line
    assert json.loads('"' + line[place.start : place.end] + '"') in DOC_TEXT
    # a rendered view selects the same evidence below its header
    rendered = render(cited.document, cited.verdict)
    assert rendered.text.startswith("id: Earthworm\n") and rendered.text.endswith(DOC_TEXT)
    assert rendered.selection is not None
    assert rendered.text[rendered.selection[0] : rendered.selection[1]] in DOC_TEXT
    # the project file changes: the old sources are closed, new ones opened on demand
    toml = tmp_path / "citelens.toml"
    toml.write_text('corpora = ["index:idx.sqlite"]\nstrict = true\n', encoding="utf-8")
    st = toml.stat()
    os.utime(toml, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert ws.refresh()
    assert index_source._reader is None
    assert ws.sources_for(doc.settings) is not chain
    # editor settings that change close them too
    again = ws.sources_for(doc.settings)
    again.get_many(["Earthworm"])
    ws.set_editor_settings({"strict": False})
    assert again.sources[0]._reader is None
