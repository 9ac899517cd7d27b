"""A checked run -> what a person reads in the terminal, and what a script parses."""

from __future__ import annotations

import io
import json

import pytest

from citelens.cli.output import OUTPUT_FORMATS, Summary, render_json, render_text, write_output, write_text
from tests.helpers.run_results import RUN_TEXT, run_results


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_text_lists_findings_by_path_and_position_with_code_point_columns() -> None:
    lines = render_text(run_results()).splitlines()
    bad_id_column = RUN_TEXT.split("\n")[1].index('"bad-id"') + 1  # the emoji counts as one column
    assert lines == [
        "runs/a.jsonl:1:1: error[json_syntax] line 1 is not JSON",
        "runs/b.jsonl:1:1: info[missing_topics] topic 2002 has no report",
        f"runs/b.jsonl:1:{RUN_TEXT.index('[]') + 1}: warning[empty_answer] the report has no sentences",
        f"runs/b.jsonl:2:{bad_id_column}: error[docid_pattern] doc id 'bad-id' does not match uuid_<digits>",
        "2 errors, 1 warning, 1 info in 2 files (3 reports)",
    ]


def test_summary_line_without_findings_and_with_a_given_summary() -> None:
    assert render_text([]) == "0 errors, 0 warnings in 0 files (0 reports)\n"
    assert (
        render_text([], Summary(files=1, reports=12, errors=3, warnings=2)).strip()
        == "3 errors, 2 warnings in 1 file (12 reports)"
    )


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain, terminal = io.StringIO(), Terminal()
    write_text(run_results(), plain)
    write_text(run_results(), terminal)
    assert "\x1b[" not in plain.getvalue()
    assert "\x1b[1;31merror\x1b[0m" in terminal.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    terminal = Terminal()
    write_text(run_results(), terminal)
    assert "\x1b[" not in terminal.getvalue()


def test_a_message_with_line_breaks_stays_on_one_line() -> None:
    results = run_results()
    results[1].findings[0] = (
        results[1].findings[0].__class__("json_syntax", "error", "a\nb\r\nc", start=0, end=1)
    )
    assert "runs/a.jsonl:1:1: error[json_syntax] a b c" in render_text(results)


def test_json_is_exactly_one_object_with_one_based_end_exclusive_positions() -> None:
    doc = json.loads(render_json(run_results()))  # raises if there is anything but one value
    assert set(doc) == {"findings", "summary"}
    assert doc["summary"] == {"files": 2, "reports": 3, "errors": 2, "warnings": 1, "infos": 1}
    by_code = {f["code"]: f for f in doc["findings"]}
    assert set(by_code["docid_pattern"]) == {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "severity",
        "message",
        "topic_id",
    }
    bad = by_code["docid_pattern"]
    assert bad["end_line"] == bad["line"] == 2
    assert bad["end_column"] - bad["column"] == len('"bad-id"')
    assert bad["topic_id"] == "2001"
    file_level = by_code["missing_topics"]
    assert (file_level["line"], file_level["column"], file_level["end_line"], file_level["end_column"]) == (
        1,
        1,
        1,
        2,
    )
    assert file_level["topic_id"] is None


def test_json_keeps_non_ascii_messages_readable() -> None:
    results = run_results()
    results[1].findings[0] = (
        results[1].findings[0].__class__("json_syntax", "error", "Café 😀", start=0, end=1)
    )
    assert "Café 😀" in render_json(results)


def test_write_output_knows_each_format_and_refuses_others() -> None:
    for fmt in OUTPUT_FORMATS:
        stream = io.StringIO()
        write_output(fmt, run_results(), stream)
        assert stream.getvalue().endswith("\n")
    with pytest.raises(ValueError, match="known: text, json, github, sarif"):
        write_output("xml", run_results(), io.StringIO())
