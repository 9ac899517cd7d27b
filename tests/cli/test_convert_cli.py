"""`citelens convert` from the user's side: safe writes, broken input, what was lost."""

import json
from pathlib import Path

from citelens.check import Checker
from citelens.specs import get_spec
from tests.helpers.cli_capture import run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RAGTIME = EXAMPLES / "ragtime26-run.jsonl"


def test_converts_line_by_line_in_order_and_reports_losses(capsys, tmp_path):
    out = tmp_path / "run.neuclir.jsonl"
    code, stdout, err = run(capsys, "convert", RAGTIME, "--to", "kiddie", "-o", out)
    assert code == 0 and stdout == ""
    src = [json.loads(l) for l in RAGTIME.read_text().splitlines()]
    got = [json.loads(l) for l in out.read_text().splitlines()]
    assert [g["metadata"]["topic_id"] for g in got] == [s["metadata"]["topic_id"] for s in src]
    first = src[0]["responses"][0]["citations"]
    assert got[0]["responses"][0]["citations"] == sorted(first, key=lambda d: -first[d])
    assert "note[confidence_dropped]" in err and f"{RAGTIME}:1:" in err


def test_converted_run_checks_clean_except_for_what_the_source_lacked(capsys, tmp_path):
    out = tmp_path / "run.ragtime25.jsonl"
    code, _, err = run(capsys, "convert", RAGTIME, "--to", "ragtime25", "-o", out)
    assert code == 0
    findings = Checker(get_spec("ragtime25")).check_path(out).findings
    # ragtime26 runs carry no `task`; ragtime25 recommends it, and that is all that is left
    assert {(f.code, f.message) for f in findings} == {
        ("metadata_recommended", "metadata.task is recommended by the track but is missing")
    }
    assert "metadata_dropped" in err  # run_desc is not a ragtime25 key


def test_refuses_to_overwrite_input_or_existing_files(capsys, tmp_path):
    src = tmp_path / "run.jsonl"
    src.write_bytes(RAGTIME.read_bytes())
    code, _, err = run(capsys, "convert", src, "--to", "kiddie", "-o", src)
    assert code == 2 and "--in-place" in err
    other = tmp_path / "exists.jsonl"
    other.write_text("keep me\n")
    code, _, err = run(capsys, "convert", src, "--to", "kiddie", "-o", other)
    assert code == 2 and other.read_text() == "keep me\n"
    code, _, _ = run(capsys, "convert", src, "--to", "kiddie", "--in-place")
    assert code == 0 and isinstance(
        json.loads(src.read_text().splitlines()[0])["responses"][0]["citations"], list
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exists.jsonl", "run.jsonl"]  # no temp files left


def test_broken_lines_are_listed_with_positions_and_nothing_is_written(capsys, tmp_path):
    lines = RAGTIME.read_text().splitlines()
    src = tmp_path / "run.jsonl"
    src.write_text(lines[0] + "\n" + '{"metadata": {' + "\n" + lines[1] + "\n" + '{"responses": []}' + "\n")
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "convert", src, "--to", "kiddie", "-o", out)
    assert code == 1 and not out.exists()
    assert f"{src}:2:15: error[json_syntax]" in err
    assert f"{src}:4:1: error[schema]" in err
    code, _, err = run(capsys, "convert", src, "--to", "kiddie", "-o", out, "--keep-going")
    assert code == 1 and len(out.read_text().splitlines()) == 2


def test_flat_rag24_lines_are_detected_and_converted(capsys, tmp_path):
    flat = {
        "run_id": "r",
        "topic_id": 23287,
        "topic": "q",
        "references": ["msmarco_v2.1_doc_45_5#1_9"],
        "response_length": 2,
        "answer": [{"text": "Two words", "citations": [0]}],
    }
    src = tmp_path / "flat.jsonl"
    src.write_text(json.dumps(flat) + "\n")
    code, out, err = run(capsys, "convert", src, "--to", "rag25")
    value = json.loads(out)
    assert value["metadata"]["narrative_id"] == "23287" and value["answer"][0]["citations"] == [0]
    assert "note[id_stringified]" in err
