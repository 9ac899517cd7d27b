"""`--statistics`: which codes a run trips most."""

from __future__ import annotations

from citelens.check.finding import Finding
from citelens.check.result import FileResult
from citelens.cli.output import CodeCount, code_counts, render_statistics
from citelens.source.line_index import LineIndex


def results() -> list[FileResult]:
    text = "x" * 20
    findings = (
        [Finding("length", "warning", "m", start=i, end=i + 1) for i in range(3)]
        + [Finding("citation_format", "error", "m", start=i, end=i + 1) for i in range(5)]
        + [Finding("length", "error", "m", start=9, end=10)]
    )
    return [
        FileResult("a.jsonl", LineIndex(text), findings[:4]),
        FileResult("b.jsonl", LineIndex(text), findings[4:]),
    ]


def test_counts_per_code_and_severity_most_frequent_first() -> None:
    assert code_counts(results()) == [
        CodeCount("citation_format", "error", 5),
        CodeCount("length", "warning", 3),
        CodeCount("length", "error", 1),
    ]


def test_rendered_columns_line_up_and_can_carry_rule_summaries() -> None:
    assert render_statistics(results()) == (
        "5  error    citation_format\n3  warning  length\n1  error    length\n"
    )
    text = render_statistics(results(), lambda code: f"about {code}")
    assert text.splitlines()[0] == "5  error    citation_format  about citation_format"
    assert render_statistics([]) == ""
