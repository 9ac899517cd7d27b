"""The Python API for scripts and notebooks gives what the command line gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import citelens

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FAULTY = EXAMPLES / "rag26-with-mistakes.jsonl"
TOPICS = EXAMPLES / "rag26-topics.tsv"
CORPUS = ROOT / "tests" / "data" / "documents" / "msmarco_v2.1_doc_segmented.sample.jsonl"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "citelens", *args], capture_output=True, text=True, cwd=ROOT)


def test_check_file_gives_the_findings_of_citelens_check():
    rows = citelens.check_file(FAULTY, spec="rag26", topics=TOPICS)
    out = json.loads(
        _cli("check", str(FAULTY), "--spec", "rag26", "--topics", str(TOPICS), "--format", "json").stdout
    )
    cli = [
        (f["line"], f["column"], f["end_line"], f["end_column"], f["code"], f["severity"], f["message"])
        for f in out["findings"]
    ]
    assert [(r.line, r.column, r.end_line, r.end_column, r.code, r.severity, r.message) for r in rows] == cli
    assert len(rows.errors) == 6 and len(rows.warnings) == 2
    assert str(rows).splitlines()[0].startswith(f"{FAULTY}:1:880: error[citation_format]")


def test_check_text_reads_a_run_from_memory():
    text = FAULTY.read_text(encoding="utf-8")
    from_text = citelens.check_text(text, spec="rag26", topics=TOPICS, name="mine.jsonl")
    from_file = citelens.check_file(FAULTY, spec="rag26", topics=TOPICS)
    assert [(r.line, r.column, r.code) for r in from_text] == [(r.line, r.column, r.code) for r in from_file]
    assert {r.path for r in from_text} == {"mine.jsonl"}
    assert citelens.check_text('{"metadata": ', spec="rag26")[0].code == "json_syntax"


def test_strict_makes_warnings_errors():
    rows = citelens.check_file(FAULTY, spec="rag26", topics=TOPICS, strict=True)
    assert rows.warnings == [] and len(rows.errors) == 8


def test_findings_render_as_an_escaped_table():
    hostile = json.dumps(
        {
            "metadata": {"team_id": "t", "run_id": "<script>alert(1)</script>", "topic_id": "1"},
            "answer": [{"text": "x", "citations": []}],
        }
    )
    rows = citelens.check_text(hostile, spec="rag26")
    page = rows._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert page.startswith("<table>") and page.count("<tr>") == len(rows) + 1
    assert citelens.check_text("", spec="rag26")._repr_html_() != ""


def test_convert_file_equals_citelens_convert(tmp_path):
    run = EXAMPLES / "dragun25-organizer-run.jsonl"
    converted = citelens.convert_file(run, to="ragtime26")
    proc = _cli("convert", str(run), "--to", "ragtime26", "-o", str(tmp_path / "out.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert converted.text == (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert converted.notes and all(n.severity == "info" for n in converted.notes)
    assert converted.broken == []
    assert run.read_text(encoding="utf-8") != converted.text  # nothing was written back


def test_align_sentence_finds_the_evidence():
    doc = "In autumn, trees stop making chlorophyll. Other pigments then show through."
    (span,) = citelens.align_sentence("Trees stop making chlorophyll in autumn.", {"leaf": doc})
    assert span.status in ("supported", "partial")
    assert span.citations[0].source_id == "leaf"
    assert "stop making chlorophyll" in span.citations[0].evidence


def test_get_document_from_a_corpus_file():
    first = json.loads(CORPUS.read_text(encoding="utf-8").splitlines()[0])
    doc = citelens.get_document(first["docid"], sources=[str(CORPUS)])
    assert doc is not None and doc.id == first["docid"] and first["segment"] in doc.text
    assert citelens.get_document("msmarco_v2.1_doc_99_0#0_0", sources=[str(CORPUS)]) is None


def test_importing_citelens_loads_no_engine_until_a_call():
    code = "import sys, citelens; print(any(m.startswith('citelens.') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("name", ["nothing_here", "scripting"])
def test_unknown_names_raise_attribute_error(name):
    if name == "scripting":
        assert citelens.check_file is citelens.scripting.check_file
    else:
        with pytest.raises(AttributeError):
            getattr(citelens, name)
