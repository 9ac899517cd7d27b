"""`citelens check .` in a participant's workspace: each run checked with its folder's
settings, nothing said about topics, corpus, nugget or excluded files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli_capture import run
from tests.helpers.workspace_tracks import RUNS, copy_workspace


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = copy_workspace(tmp_path)
    monkeypatch.chdir(root)
    return root


def shown_files(out: str) -> set[str]:
    return {Path(line).as_posix().removeprefix("./") for line in out.splitlines() if not line.startswith("#")}


def test_check_dot_checks_exactly_the_runs(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", ".", "--show-files")
    assert (code, shown_files(out), err) == (0, set(RUNS), "")
    assert "# skipped " + str(root / "rag25" / "topics.jsonl") + ": the topics file (" in out
    _, out, _ = run(capsys, "check", ".", "--format", "json")
    assert json.loads(out)["summary"]["files"] == len(RUNS)


def test_each_folder_is_checked_with_its_own_spec(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", ".")
    # rag25's topics file has topics the run does not answer; the ragtime run answers all of its own
    assert "rag25/baseline.jsonl:1:1: error[missing_topics] 2 topic(s)" in out
    assert "ragtime/T1_run_1.jsonl" not in out  # clean under ragtime26 with its topics
    code_alone, out_alone, _ = run(capsys, "check", "ragtime/T1_run_1.jsonl", "--spec", "rag25")
    assert code_alone == 1 and "ragtime/T1_run_1.jsonl" in out_alone  # it would not be clean as rag25


def test_show_settings_names_where_each_value_came_from(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", "--show-settings", "ragtime/T1_run_1.jsonl", "corpus")
    assert code == 0
    assert f"  project file: {root / 'pyproject.toml'}\n" in out
    assert "  a run: yes\n" in out
    assert (
        f"  spec = ragtime26  ({root / 'pyproject.toml'} [[tool.citelens.overrides]] #1 (ragtime/*.jsonl))\n"
        in out
    )
    assert "  strict = false  (default)\n" in out
    code, out, _ = run(capsys, "check", "--show-settings", "--spec", "rag26", "rag25/topics.jsonl")
    assert "  spec = rag26  (command line)\n" in out
    assert "  a run: no, the topics file (" in out


def test_no_respect_gitignore(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "check", ".", "--no-respect-gitignore", "--show-files")
    assert shown_files(out) == {*RUNS, "output/converted.jsonl", "rag25/retry.tmp.jsonl"}


RUN_DIR = Path(__file__).parents[1] / "data" / "runs"


def test_with_no_spec_the_cli_says_which_track_the_run_looks_like(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _, _, err = run(capsys, "check", RUN_DIR / "ragnarok_rag25_ag_baseline.example.jsonl")
    assert err.endswith(
        "no spec configured; this run looks like rag25 (doc ids of msmarco_v2.1_doc_segmented, "
        "integer citations, 'answer' sentences); run with --spec rag25 or set it in citelens.toml\n"
    )
    _, _, err = run(capsys, "check", "--spec", "rag26", RUN_DIR / "ragnarok_rag25_ag_baseline.example.jsonl")
    assert "checked as rag26 (36 error(s)), but this run looks like rag25 (" in err
    _, _, err = run(capsys, "check", "--spec", "rag25", RUN_DIR / "ragnarok_rag25_ag_baseline.example.jsonl")
    assert err == ""  # the right spec: nothing to say


def test_the_hint_names_the_project_file_in_use(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('spec = "rag25"\n', "", 1))
    _, _, err = run(capsys, "check", "rag25/baseline.jsonl")
    assert "run with --spec rag25 or set it in pyproject.toml [tool.citelens]\n" in err
