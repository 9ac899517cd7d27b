"""`OpenDocument.unchecked_reports` says how many reports the next `result` checks: the
server checks an edit's reports on its loop only when they are a few (checks.py)."""

from __future__ import annotations

from pathlib import Path

from citelens.session import TextChange, Workspace
from tests.helpers.report_factory import generate_run


def test_it_counts_the_reports_the_next_result_checks(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 12, 4)
    text = "\n".join(lines) + "\n"
    doc = Workspace([tmp_path]).open((tmp_path / "run.jsonl").as_uri(), text, 1)
    assert doc.unchecked_reports == 12  # never checked
    assert doc.result.findings is not None
    assert doc.unchecked_reports == 0
    at = text.index('"text": "') + 9  # inside the first report's first sentence
    doc.apply_changes([TextChange(at, at, "x")], version=2)
    assert doc.unchecked_reports == 1  # only the edited report
    assert doc.result.findings is not None
    assert doc.unchecked_reports == 0
    doc.forget_result()  # judged reports: all checked again
    assert doc.unchecked_reports == 12
