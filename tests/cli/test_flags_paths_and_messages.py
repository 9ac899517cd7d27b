"""`citelens check` flags do what the docs say, every named path is checked once, and
every problem with a path names its real cause."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from citelens.cli import main
from tests.helpers.cli_capture import run
from tests.helpers.unprivileged import shared_folder, unprivileged

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MISTAKES = EXAMPLES / "rag26-with-mistakes.jsonl"
RAGTIME = EXAMPLES / "ragtime26-run.jsonl"


# --- --strict and the config file ------------------------------------------------------


def test_strict_on_the_command_line_beats_a_severity_lowered_in_the_config(capsys, tmp_path):
    shutil.copy(MISTAKES, tmp_path / "run.jsonl")
    (tmp_path / "citelens.toml").write_text('[severity]\ndocid_pattern = "warning"\nrun_id_length = "info"\n')
    code, out, _ = run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26")
    assert code == 1 and "warning[docid_pattern]" in out and "info[run_id_length]" in out
    code, out, _ = run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26", "--strict")
    assert code == 1
    assert "error[docid_pattern]" in out and "error[run_id_length]" in out
    assert "warning[" not in out and "info[" not in out


def test_strict_alone_turns_lowered_codes_into_errors_and_exits_one(capsys, tmp_path):
    (tmp_path / "run.jsonl").write_text(MISTAKES.read_text().splitlines()[2] + "\n")  # only a smell
    (tmp_path / "citelens.toml").write_text('[severity]\ncitation_count = "warning"\n')
    assert run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26")[0] == 0
    code, out, _ = run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26", "--strict")
    assert code == 1 and "error[citation_count]" in out


@pytest.mark.parametrize("code", ["json_syntax", "encoding", "duplicate_key", "schema"])
@pytest.mark.parametrize("level", ["ignore", "warning", "info"])
def test_the_always_error_codes_cannot_be_lowered_in_a_config(capsys, tmp_path, code, level):
    (tmp_path / "run.jsonl").write_text("not json\n")
    (tmp_path / "citelens.toml").write_text(f'spec = "rag26"\n\n[severity]\n{code} = "{level}"\n')
    status, out, err = run(capsys, "check", tmp_path / "run.jsonl")
    assert status == 2 and out == ""
    assert err.startswith(f"citelens check: {tmp_path / 'citelens.toml'}:4: ")
    assert f"{code!r} is always an error" in err and err.count("\n") == 1


def test_the_editor_cannot_lower_an_always_error_code_either():
    from citelens.session import Workspace

    ws = Workspace(init_options={"severity": {"json_syntax": "ignore", "length": "warning"}})
    doc = ws.open("untitled:run", "not json\n")
    assert [f.code for f in doc.result.findings] == ["json_syntax"]
    assert any("'json_syntax' is always an error" in m for m in ws.messages)


# --- output flags ----------------------------------------------------------------------


def test_json_summary_counts_infos(capsys, tmp_path):
    shutil.copy(MISTAKES, tmp_path / "run.jsonl")
    (tmp_path / "citelens.toml").write_text('[severity]\ndocid_pattern = "info"\n')
    _, out, _ = run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26", "--format", "json")
    doc = json.loads(out)
    infos = sum(f["severity"] == "info" for f in doc["findings"])
    assert infos == 2 and doc["summary"]["infos"] == infos


def test_statistics_in_json_is_one_json_object_with_the_counts(capsys):
    code, out, _ = run(capsys, "check", MISTAKES, "--spec", "rag26", "--statistics", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and set(doc) == {"statistics", "summary"}
    counts = {(row["code"], row["severity"]): row["count"] for row in doc["statistics"]}
    assert counts[("docid_pattern", "error")] == 2 and all(row["summary"] for row in doc["statistics"])
    assert doc["summary"] == {"files": 1, "reports": 3, "errors": 5, "warnings": 2, "infos": 0}


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_statistics_in_a_format_without_statistics_is_a_usage_error(capsys, fmt):
    code, out, err = run(capsys, "check", MISTAKES, "--statistics", "--format", fmt)
    assert code == 2 and out == "" and f"--statistics prints text or json, not {fmt}" in err


@pytest.mark.parametrize(("flag", "what"), [("--spec", "spec"), ("--topics", "topics")])
def test_an_empty_spec_or_topics_flag_is_refused_not_dropped(capsys, flag, what):
    code, out, err = run(capsys, "check", MISTAKES, flag, "")
    assert code == 2 and out == ""
    assert err.startswith(f"citelens check: {flag} is empty; give a {what}")


# --- which files are checked -------------------------------------------------------------


def test_the_same_file_named_twice_is_checked_once(capsys, tmp_path):
    shutil.copy(MISTAKES, tmp_path / "run.jsonl")
    (tmp_path / "link.jsonl").symlink_to("run.jsonl")
    once = run(capsys, "check", tmp_path / "run.jsonl", "--spec", "rag26")[1]
    code, out, _ = run(
        capsys,
        "check",
        tmp_path / "run.jsonl",
        tmp_path / "run.jsonl",
        tmp_path,
        tmp_path / "link.jsonl",
        "--spec",
        "rag26",
    )
    assert out == once and out.endswith("in 1 file (3 reports)\n")


def test_check_reads_standard_input_for_a_dash(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MISTAKES.read_bytes())))
    code, out, _ = run(capsys, "check", "-", "--spec", "rag26")
    named = run(capsys, "check", MISTAKES, "--spec", "rag26")[1]
    assert code == 1 and out == named.replace(str(MISTAKES), "<stdin>")


def test_fix_on_standard_input_is_refused_and_diff_works(capsys, monkeypatch):
    code, out, err = run(capsys, "check", "-", "--spec", "rag26", "--fix")
    assert code == 2 and "--fix cannot rewrite standard input; use --diff" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MISTAKES.read_bytes())))
    code, out, _ = run(capsys, "check", "-", "--spec", "rag26", "--diff")
    assert out.startswith("--- a/<stdin>\n+++ b/<stdin>\n")


# --- messages about paths ----------------------------------------------------------------


def test_a_link_loop_dev_null_and_a_dangling_link_name_their_real_cause(capsys, tmp_path):
    (tmp_path / "loop.jsonl").symlink_to("loop.jsonl")
    (tmp_path / "gone.jsonl").symlink_to("nowhere.jsonl")
    code, out, err = run(
        capsys,
        "check",
        tmp_path / "loop.jsonl",
        "/dev/null",
        tmp_path / "gone.jsonl",
        MISTAKES,
        "--spec",
        "rag26",
    )
    assert code == 2
    assert err.splitlines() == [
        f"citelens check: {tmp_path / 'loop.jsonl'}: a symbolic link loop (the link leads back to itself)",
        f"citelens check: {tmp_path / 'gone.jsonl'}: a symbolic link to nowhere.jsonl, which does not exist",
        "citelens check: /dev/null: not a file but a character device",
    ]
    assert out.endswith("5 errors, 2 warnings in 1 file (3 reports)\n")  # the good file still checked


def test_specs_with_an_empty_name_says_so(capsys):
    code, _, err = run(capsys, "specs", "")
    assert code == 2 and "the spec id is empty" in err and ".:" not in err


def test_one_unreadable_file_in_a_directory_does_not_stop_the_others():
    with shared_folder() as root:
        runs = root / "runs"
        runs.mkdir()
        runs.chmod(0o755)
        for name in ("a.jsonl", "c.jsonl"):
            shutil.copy(MISTAKES, runs / name)
            (runs / name).chmod(0o644)
        shutil.copy(MISTAKES, runs / "b.jsonl")
        (runs / "b.jsonl").chmod(0o600)  # root's alone: unreadable to the user below
        import os

        if os.geteuid() != 0:
            (runs / "b.jsonl").chmod(0o000)

        def check() -> tuple[int, str, str]:
            import contextlib

            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["check", str(runs), "--spec", "rag26"])
            return code, out.getvalue(), err.getvalue()

        code, out, err = unprivileged(check)  # type: ignore[misc]
        assert code == 2
        assert err == f"citelens check: {runs / 'b.jsonl'}: cannot read it: permission denied\n"
        assert f"{runs / 'a.jsonl'}:" in out and f"{runs / 'c.jsonl'}:" in out
        assert out.endswith("10 errors, 4 warnings in 2 files (6 reports)\n")
