"""Reports renumbered by an edit (reports added or removed before them) keep their
checked outcome, and their facts for the cross-report rules follow the new numbers."""

from __future__ import annotations

from pathlib import Path

from citelens.check import Checker
from citelens.session import TextChange, Workspace
from citelens.specs import get_spec
from tests.helpers.report_factory import generate_run


def test_reports_renumbered_by_an_edit_keep_their_cross_report_findings_in_place(tmp_path: Path) -> None:
    """Reports added or removed before others renumber them: their kept facts follow
    (a duplicate topic is reported on the right reports, as a fresh check reports it)."""
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 6, 2, fault_free=True)
    lines.append(lines[2])  # topic of report 2 twice: duplicate_topics names both
    text = "\n".join(lines) + "\n"
    doc = Workspace([tmp_path]).open((tmp_path / "run.jsonl").as_uri(), text, 1)
    assert doc.result.findings is not None
    edits = [(0, 0, lines[4] + "\n"), (0, len(lines[4]) + 1, ""), (0, 0, lines[5] + "\n" + lines[1] + "\n")]
    for version, (start, end, new) in enumerate(edits, 2):
        text = text[:start] + new + text[end:]
        doc.apply_changes([TextChange(start, end, new)], version=version)
        fresh = Checker(get_spec("rag25")).check_text(text, "run.jsonl")
        rows = [(f.code, f.start, f.end, f.message) for f in doc.result.findings]
        assert rows == [(f.code, f.start, f.end, f.message) for f in fresh.findings]
        assert any(code == "duplicate_topics" for code, *_ in rows)
