"""`citelens check --docs` and `corpora` in citelens.toml: unknown_document on the id, or one note when a source could not answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from citelens.session import Workspace
from tests.helpers.anserini_server import refused_port
from tests.helpers.corpus_samples import write_corpus
from tests.helpers.sample_data import RUNS

META = '{"team_id":"t","narrative_id":"rag2026-0","narrative":"How did crops cross the Atlantic?","run_id":"my-run","run_desc":"BM25 + LLM"}'


def rag26_line(refs: list[str], topic: int = 0) -> str:
    answer = [{"text": f"Sentence {i}.", "citations": [i]} for i in range(len(refs))]
    meta = {**json.loads(META), "narrative_id": f"rag2026-{topic}"}
    return json.dumps({"metadata": meta, "references": refs, "answer": answer})


def check(*args: str, cwd: Path | None = None) -> tuple[int, list[dict[str, object]]]:
    done = subprocess.run(
        [sys.executable, "-m", "citelens", "check", *args, "--format", "json"],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_an_id_no_source_has_is_reported_on_that_id(tmp_path: Path) -> None:
    corpus = tmp_path / "climbmix.jsonl"
    records = write_corpus(corpus, "climbmix", 40)
    typo = records[3]["id"] + "00"  # shard_00000_300: not among the 40
    run = tmp_path / "run.jsonl"
    line = rag26_line([records[0]["id"], typo, records[5]["id"]])
    run.write_text(line + "\n")
    status, findings = check(str(run), "--spec", "rag26", "--docs", str(corpus))
    assert status == 1
    assert [f["code"] for f in findings] == ["unknown_document"]
    at = line.index(f'"{typo}"')
    assert (findings[0]["line"], findings[0]["column"], findings[0]["end_column"]) == (
        1,
        at + 1,
        at + len(typo) + 3,
    )
    assert typo in str(findings[0]["message"])
    status, findings = check(str(run), "--spec", "rag26")
    assert "unknown_document" not in {f["code"] for f in findings}


def test_neuclir_and_ragtime_citations_are_looked_up_and_embedded_documents_count_as_found(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "c.jsonl"
    records = write_corpus(corpus, "neuclir", 10)
    known, unknown = records[0]["id"], records[0]["id"][:-1] + "x"
    report = {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": "leaf"},
        "responses": [{"text": "One.", "citations": [known, unknown, "Chlorophyll"]}],
        "documents": {"Chlorophyll": {"id": "Chlorophyll", "text": "a green pigment"}},
    }
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(report) + "\n")
    _, findings = check(str(run), "--spec", "kiddie", "--docs", str(corpus))
    flagged = [f for f in findings if f["code"] == "unknown_document"]
    assert len(flagged) == 1 and unknown in str(flagged[0]["message"])


def test_the_kiddie_run_with_its_embedded_documents_has_no_unknown_document(tmp_path: Path) -> None:
    corpus = tmp_path / "other.jsonl"
    write_corpus(corpus, "neuclir", 5)
    _, findings = check(str(RUNS / "kiddie_run1.jsonl"), "--spec", "kiddie", "--docs", str(corpus))
    assert "unknown_document" not in {f["code"] for f in findings}


def test_an_unreachable_service_gives_one_note_and_no_guess(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("".join(rag26_line([f"shard_00001_{n}", f"shard_00002_{n}"], n) + "\n" for n in range(30)))
    with refused_port() as port:  # nothing listens there
        url = f"http://127.0.0.1:{port}/v1/climbmix-400b;timeout=2"
        status, findings = check(str(run), "--spec", "rag26", "--docs", url)
    notes = [f for f in findings if f["code"] == "documents_unchecked"]
    assert status == 0 and "unknown_document" not in {f["code"] for f in findings}
    assert len(notes) == 1 and notes[0]["severity"] == "info"
    assert "60 cited doc id(s) could not be checked" in str(notes[0]["message"])
    assert "cannot reach" in str(notes[0]["message"]) and "climbmix-400b" in str(notes[0]["message"])


def test_a_partial_index_finds_what_it_has_and_notes_the_rest(tmp_path: Path) -> None:
    import sqlite3

    corpus = tmp_path / "c.jsonl"
    records = write_corpus(corpus, "climbmix", 50)
    db = tmp_path / "i.sqlite"
    subprocess.run(
        [sys.executable, "-m", "citelens", "index", str(corpus), "--db", str(db)],
        check=True,
        capture_output=True,
    )
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value='building' WHERE key='state'")  # as a build still running
    con.commit()
    con.close()
    run = tmp_path / "run.jsonl"
    run.write_text(rag26_line([records[0]["id"], "shard_09999_1"]) + "\n")
    status, findings = check(str(run), "--spec", "rag26", "--docs", f"index:{db}")
    assert status == 0 and [f["code"] for f in findings] == ["documents_unchecked"]
    assert "still being built" in str(findings[0]["message"]) and "shard_09999_1" in str(
        findings[0]["message"]
    )


def test_corpora_from_citelens_toml_relative_to_it_and_the_severity_setting(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    records = write_corpus(project / "data" / "c.jsonl", "climbmix", 10)
    (project / "citelens.toml").write_text(
        'spec = "rag26"\ncorpora = ["data/c.jsonl"]\n[severity]\nunknown_document = "warning"\n'
    )
    run = project / "run.jsonl"
    run.write_text(rag26_line([records[1]["id"], "shard_00000_999999"]) + "\n")
    status, findings = check("run.jsonl", cwd=project)
    assert status == 0 and [(f["code"], f["severity"]) for f in findings] == [("unknown_document", "warning")]
    workspace = Workspace()
    doc = workspace.open(run, run.read_text())
    assert [f.code for f in doc.result.findings] == ["unknown_document"]


def test_show_uses_corpora_from_citelens_toml_and_says_what_it_cannot_find(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    records = write_corpus(project / "data" / "c.jsonl", "msmarco-seg", 5)
    (project / "citelens.toml").write_text('corpora = ["data/c.jsonl"]\n')
    wanted = records[2]["docid"]
    shown = subprocess.run(
        [sys.executable, "-m", "citelens", "show", wanted, "nope"],
        capture_output=True,
        text=True,
        cwd=project,
        timeout=120,
    )
    assert shown.returncode == 1
    assert f"id:     {wanted}" in shown.stdout and records[2]["segment"] in shown.stdout
    assert f"source: {project / 'data' / 'c.jsonl'}:3" in shown.stdout
    assert "nope: not found in corpus" in shown.stderr
    bare = subprocess.run(
        [sys.executable, "-m", "citelens", "show", wanted],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert bare.returncode == 2 and "no document sources" in bare.stderr
