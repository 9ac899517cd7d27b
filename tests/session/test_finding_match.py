"""A diagnostic sent back with other columns still names its finding (and so its fix)."""

from __future__ import annotations

from citelens.check.engine import Checker
from citelens.session.finding_match import finding_for
from citelens.source.line_index import LineIndex

TEXT = (
    '{"metadata": {"run_id": "é", "narrative_id": 1}, "answer": [{"text": "  Ünïcode  ", "citations": []}]}\n'
)


def test_other_columns_on_the_same_line_find_the_finding() -> None:
    result = Checker(None).check_text(TEXT)
    lines = LineIndex(TEXT)
    for f in result.findings:
        assert finding_for(f.code, f.start, f.end, result.findings, lines) is f
        # columns counted in other units (UTF-8 bytes for the é and Ü before the token)
        assert finding_for(f.code, f.start + 3, f.end + 3, result.findings, lines) is f
    assert result.findings, "the sample must have findings"
    assert finding_for("no_such_code", 0, 1, result.findings, lines) is None


def test_another_line_is_not_matched() -> None:
    text = TEXT + TEXT.replace("é", "e")
    result = Checker(None).check_text(text)
    lines = LineIndex(text)
    second = [f for f in result.findings if lines.line_of(f.start) == 1]
    assert second
    for f in second:
        wrong_line = lines.line_end(0) - 1  # the same code on line 0 exists: that one is found, not f
        match = finding_for(f.code, wrong_line, wrong_line + 1, result.findings, lines)
        assert match is not f
