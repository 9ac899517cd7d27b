"""`citelens check` from the user's side: output lines, JSON shape, exit codes, config."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.cli import main
from tests.helpers.cli_capture import run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_clean_bundled_example_exits_zero(capsys):
    code, out, _ = run(
        capsys,
        "check",
        str(EXAMPLES / "dragun25-organizer-run.jsonl"),
        "--spec",
        "dragun25",
        "--topics",
        str(EXAMPLES / "dragun25-topics.jsonl"),
    )
    assert code == 0
    assert out.strip() == "0 errors, 0 warnings in 1 file (30 reports)"


def test_faulty_example_prints_positioned_findings_and_exits_one(capsys):
    path = EXAMPLES / "rag26-with-mistakes.jsonl"
    code, out, _ = run(
        capsys, "check", str(path), "--spec", "rag26", "--topics", str(EXAMPLES / "rag26-topics.tsv")
    )
    assert code == 1
    lines = out.splitlines()
    text = path.read_text().splitlines()
    first = next(l for l in lines if "[reference_index]" in l)
    _, ln, col, rest = first.split(":", 3)
    assert rest.startswith(" error[reference_index]")
    assert text[int(ln) - 1][int(col) - 1] == "2"  # the out-of-range index itself
    assert lines[-1] == "6 errors, 2 warnings in 1 file (3 reports)"


def test_json_format_is_one_object_with_the_documented_keys(capsys):
    code, out, _ = run(
        capsys, "check", str(EXAMPLES / "rag26-with-mistakes.jsonl"), "--spec", "rag26", "--format", "json"
    )
    doc = json.loads(out)
    assert set(doc) == {"findings", "summary"}
    assert set(doc["summary"]) == {"files", "reports", "errors", "warnings", "infos"}
    keys = {"path", "line", "column", "end_line", "end_column", "code", "severity", "message", "topic_id"}
    assert doc["findings"] and all(set(f) - {"related"} == keys for f in doc["findings"])
    assert all(f["severity"] in ("error", "warning", "info") for f in doc["findings"])
    assert code == 1


def test_statistics_counts_per_code(capsys):
    code, out, _ = run(
        capsys, "check", str(EXAMPLES / "rag26-with-mistakes.jsonl"), "--spec", "rag26", "--statistics"
    )
    assert "docid_pattern" in out and "2" in out


def test_usage_and_io_problems_exit_two(capsys, tmp_path):
    assert run(capsys, "check", str(tmp_path / "missing.jsonl"))[0] == 2
    code, _, err = run(capsys, "check", str(EXAMPLES / "rag26-with-mistakes.jsonl"), "--spec", "rag99")
    assert code == 2 and "rag26" in err  # the message lists the known specs
    with pytest.raises(SystemExit) as exc:
        main(["check", "--format", "xml", "x"])
    assert exc.value.code == 2


def test_config_file_is_found_by_walking_up_and_flags_win(capsys, tmp_path):
    (tmp_path / "citelens.toml").write_text('spec = "rag26"\n[severity]\nreferences_uncited = "error"\n')
    runs = tmp_path / "runs"
    runs.mkdir()
    src = (EXAMPLES / "rag26-with-mistakes.jsonl").read_text()
    (runs / "run.jsonl").write_text(src)
    code, out, _ = run(capsys, "check", str(runs))
    assert "error[references_uncited]" in out
    code, out, _ = run(capsys, "check", str(runs), "--spec", "kiddie")
    assert "references_uncited" not in out and "[run_id_length]" not in out


def test_broken_lines_are_reported_and_the_rest_checked(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    good = (EXAMPLES / "rag26-with-mistakes.jsonl").read_text().splitlines()[0]
    path.write_bytes(good.encode() + b'\n{"metadata": \xff}\n' + b"not json\n")
    code, out, _ = run(capsys, "check", str(path), "--spec", "rag26")
    assert code == 1
    assert ":2:14: error[encoding]" in out
    assert ":3:1: error[json_syntax]" in out
    assert "Traceback" not in out


def test_help_is_fast_and_does_not_import_the_engine():
    probe = (
        "import sys, runpy; sys.argv=['citelens','--help'];"
        "from citelens.cli import main\n"
        "try: main()\nexcept SystemExit: pass\n"
        "heavy=[m for m in ('pydantic','numpy','yaml','citelens.check') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout
    assert out.strip().endswith("[]")
