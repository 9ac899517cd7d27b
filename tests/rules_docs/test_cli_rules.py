"""`citelens rules`: the list a user scans, the page a user reads, and the typo a user makes."""

from __future__ import annotations

import json

import pytest

from citelens.check.catalog import all_rule_docs
from citelens.cli import main
from citelens.specs.model import FINDING_CODES


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rules", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_every_code_with_its_module_and_summary(capsys) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["CODE", "MODULE", "SUMMARY"]
    for doc in all_rule_docs():
        row = next(line for line in lines if line.split()[:1] == [doc.code])
        assert row.split()[1] == doc.module
        assert row.endswith(doc.summary)


def test_one_code_prints_every_section_and_both_examples(capsys) -> None:
    code, out, err = run(capsys, "citation_count")
    assert code == 0 and err == ""
    assert out.startswith("citation_count  (checked in citelens/check/rules/sentences.py)\n")
    for title in (
        "What it checks",
        "Why it matters",
        "Example that fails",
        "Example that passes",
        "How to fix",
    ):
        assert f"\n{title}\n{'-' * len(title)}\n" in out
    assert 'run, checked under spec rag26:\n    {"metadata"' in out
    assert "```" not in out  # plain text, not Markdown fences
    assert "warning:     rag26, ragtime25" in out
    assert "error:       dragun25-official" in out
    assert "Documentation: file://" in out and out.rstrip().endswith("sentences.md#citation_count")


def test_examples_with_topics_and_spec_files_are_labelled(capsys) -> None:
    _, out, _ = run(capsys, "length")
    assert 'topics file:\n    {"topic_id": "2000"' in out
    _, out, _ = run(capsys, "references_present")
    assert "spec file (TOML):\n    [specs.dragun25-norefs]" in out
    _, out, _ = run(capsys, "encoding")
    assert "run, checked under spec rag26, saved as latin-1:" in out


def test_code_is_matched_loosely(capsys) -> None:
    code, out, _ = run(capsys, "Citation-Count")
    assert code == 0 and out.startswith("citation_count ")


@pytest.mark.parametrize(
    "typo, suggestion",
    [("lenght", "length"), ("citation", "citation_count"), ("duplicate_topic", "duplicate_topics")],
)
def test_unknown_code_exits_2_and_suggests_the_closest(capsys, typo: str, suggestion: str) -> None:
    code, out, err = run(capsys, typo)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert f"unknown code {typo!r}" in err and "did you mean" in err and suggestion in err


def test_unknown_code_with_nothing_close(capsys) -> None:
    code, _, err = run(capsys, "zzzz")
    assert code == 2 and "did you mean" not in err and "citelens rules" in err


def test_json_list_and_json_doc(capsys) -> None:
    code, out, _ = run(capsys, "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [r["code"] for r in rows] == list(FINDING_CODES)
    assert all(r["summary"] and r["docs_uri"].endswith("#" + r["code"]) for r in rows)
    code, out, _ = run(capsys, "narrative", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["code"] == "narrative" and doc["module"] == "coverage"
    assert doc["failing"]["spec"] == "rag26" and doc["failing"]["topics"].startswith('{"id"')
    assert doc["implemented_in"] == "check/rules/coverage.py"


def test_every_code_renders(capsys) -> None:
    for code_name in FINDING_CODES:
        code, out, _ = run(capsys, code_name)
        assert code == 0 and out.startswith(code_name + "  ")
