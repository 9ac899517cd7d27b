"""`check --statistics` marks what `--fix` repairs; `check --diff` shows a long one-line
report's fixes as the changed tokens (`--diff-format tokens`), and stays a patch when piped."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from citelens.cli.output.as_token_diff import render_token_diff
from tests.helpers.cli_capture import run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MISTAKES = EXAMPLES / "rag26-with-mistakes.jsonl"
TOPICS = EXAMPLES / "rag26-topics.tsv"


def test_statistics_marks_the_codes_fix_repairs_and_counts_agree_with_fix(capsys, tmp_path):
    run_file = tmp_path / "run.jsonl"
    shutil.copy(MISTAKES, run_file)
    code, out, _ = run(capsys, "check", run_file, "--spec", "rag26", "--topics", TOPICS, "--statistics")
    assert code == 1
    rows = {line.split()[2]: line for line in out.splitlines() if re.match(r"\s*\d+  ", line)}
    assert "[*]" in rows["citation_format"] and "[*]" in rows["narrative"]
    assert "[*]" not in rows["run_id_length"] and "[-]" not in rows["run_id_length"]  # needs a person
    assert "[-]" in rows["citation_count"]  # dropping a citation changes content
    footnote = re.search(r"\[\*\] (\d+) fixable with --fix; \[-\] (\d+) more", out)
    assert footnote is not None
    _, _, err = run(capsys, "check", run_file, "--spec", "rag26", "--topics", TOPICS, "--fix")
    assert f"applied {footnote.group(1)} fix(es)" in err


def test_statistics_json_carries_the_fixable_counts(capsys):
    _, out, _ = run(
        capsys, "check", MISTAKES, "--spec", "rag26", "--topics", TOPICS, "--statistics", "--format", "json"
    )
    rows = {row["code"]: row for row in json.loads(out)["statistics"]}
    assert rows["citation_format"]["fixable"] == 1 and rows["citation_format"]["unsafe_fixable"] == 0
    assert rows["citation_count"]["fixable"] == 0 and rows["citation_count"]["unsafe_fixable"] == 1
    assert rows["run_id_length"]["fixable"] == rows["run_id_length"]["unsafe_fixable"] == 0


def test_token_diff_shows_the_changed_tokens_where_the_findings_are(capsys):
    code, out, _ = run(
        capsys, "check", MISTAKES, "--spec", "rag26", "--topics", TOPICS, "--diff", "--diff-format", "tokens"
    )
    lines = out.splitlines()
    assert lines[0].startswith(f"{MISTAKES}:1:881: ") and '[-"shard_00007_65846"-]{+1+}' in lines[0]
    _, findings, _ = run(capsys, "check", MISTAKES, "--spec", "rag26", "--topics", TOPICS)
    assert f"{MISTAKES}:1:880: error[citation_format]" in findings  # the citations list; the diff: its item
    # the report lines are 900+ characters; no diff line repeats one
    assert max(len(MISTAKES.read_text().splitlines()[0]), 900) > 800
    assert all(len(line) < 300 for line in lines), lines
    narrative = next(line for line in lines if ":3:" in line)
    assert "characters)…" in narrative  # the 600-character topic text is cut


def test_token_diff_marks_removed_and_added_lines_and_escapes_control_characters():
    old = 'a\n{"x": 1}\nb\n'
    new = 'a\n{"x": 2}\r\n'
    out = render_token_diff(old, new, "f.jsonl")
    assert out.splitlines()[0] == 'f.jsonl:2:7: {"x": [-1-]{+2+}}{+\\r+}'
    assert out.splitlines()[1] == "f.jsonl:3: line removed: [-b-]"


def test_diff_to_a_pipe_is_still_the_unified_diff(capsys):
    code, out, _ = run(capsys, "check", MISTAKES, "--spec", "rag26", "--topics", TOPICS, "--diff")
    assert out.startswith(f"--- a/{MISTAKES}\n+++ b/{MISTAKES}\n")
    _, forced, _ = run(
        capsys, "check", MISTAKES, "--spec", "rag26", "--topics", TOPICS, "--diff", "--diff-format", "unified"
    )
    assert forced == out
