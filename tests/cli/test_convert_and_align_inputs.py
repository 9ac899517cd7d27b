"""`convert` and `align` on input they cannot use: the reasons `check` gives, a lone
surrogate kept or refused plainly, and ambiguous source ids refused."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli_capture import run

GOOD = (
    '{"metadata":{"team_id":"t","narrative_id":"rag2026-0","narrative":"How do bees make honey?",'
    '"run_id":"my-run","run_desc":"BM25 + LLM"},"references":["shard_00459_61697"],'
    '"answer":[{"text":"Bees make honey from nectar.","citations":[0]}]}'
)


def test_convert_points_at_the_findings_check_gives_for_a_report_it_cannot_load(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(GOOD + "\n" + '{"metadata":{"team_id":5},"answer":"x"}\n')
    code, out, err = run(capsys, "convert", path, "--to", "ragtime26")
    assert code == 1 and out == ""
    _, checked, _ = run(capsys, "check", path)
    schema = [line.split(": error[schema] ") for line in checked.splitlines() if "error[schema]" in line]
    listed = [
        line.split(": error[schema] cannot convert this report: ")
        for line in err.splitlines()
        if "error[schema]" in line
    ]
    assert sorted(map(tuple, listed)) == sorted(map(tuple, schema)) and len(listed) == 4
    assert "validation error" not in err
    assert (
        err.splitlines()[-1]
        == "citelens convert: 4 problems in the input; nothing written (fix them, or use --keep-going)"
    )


def test_convert_writes_a_lone_surrogate_back_as_its_escape(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(GOOD.replace("from nectar", "from \\ud800 nectar") + "\n")
    out_path = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "convert", path, "--to", "ragtime26", "-o", out_path)
    assert code == 0 and "internal error" not in err
    written = out_path.read_text(encoding="utf-8")
    assert "from \\ud800 nectar" in written
    assert json.loads(written)["responses"][0]["text"] == "Bees make honey from \ud800 nectar."
    code, stdout, _ = run(capsys, "convert", path, "--to", "ragtime26")
    assert code == 0 and "\\ud800" in stdout


def test_convert_of_an_empty_file_writes_nothing_and_says_why(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("\n\n")
    code, out, err = run(capsys, "convert", path, "--to", "ragtime26", "-o", tmp_path / "out.jsonl")
    assert code == 1 and not (tmp_path / "out.jsonl").exists()
    assert "error[json_syntax] the file holds no reports" in err


def _sources(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "sources.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_align_refuses_two_sources_with_the_same_id_naming_the_line(capsys, tmp_path):
    path = _sources(
        tmp_path,
        [
            '{"id": "d1", "text": "Bees make honey."}',
            '{"id": "d2", "text": "Ants."}',
            '{"id": "d1", "text": "x"}',
        ],
    )
    code, out, err = run(capsys, "align", "--answer", "Bees make honey.", "--sources", path)
    assert code == 2 and out == ""
    assert (
        err
        == f"citelens align: {path}:3: source id 'd1' is already used on line 1; a citation to it would be ambiguous, so give each source its own id\n"
    )


def test_align_numeric_and_string_ids_that_read_the_same_are_the_same_id(capsys, tmp_path):
    path = _sources(tmp_path, ['{"id": 7, "text": "Bees make honey."}', '{"id": "7", "text": "Ants."}'])
    code, _, err = run(capsys, "align", "--answer", "Bees make honey.", "--sources", path)
    assert code == 2 and ":2: source id '7' is already used on line 1" in err


def test_align_says_plainly_that_a_source_holds_a_lone_surrogate(capsys, tmp_path):
    path = _sources(tmp_path, ['{"id": "d1", "text": "Bees \\ud800 make honey."}'])
    code, out, err = run(capsys, "align", "--answer", "Bees make honey.", "--sources", path)
    assert code == 2 and out == ""
    assert err.startswith(f'citelens align: {path}:1: "text" holds \\ud800, half of a UTF-16 surrogate pair')
    assert "internal error" not in err


def test_align_says_plainly_that_an_answer_is_not_utf8(capsys, tmp_path):
    path = _sources(tmp_path, ['{"id": "d1", "text": "Bees make honey."}'])
    answer = tmp_path / "answer.txt"
    answer.write_bytes(b"Bees \xff make honey.")
    code, _, err = run(capsys, "align", "--answer-file", answer, "--sources", path)
    assert code == 2 and err.startswith(f"citelens align: {answer}: cannot read the answer: not UTF-8 text")
    code, _, err = run(capsys, "align", "--answer", "Bees \udcff honey.", "--sources", path)
    assert code == 2 and err == "citelens align: --answer: the text is not valid UTF-8\n"
