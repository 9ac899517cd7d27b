"""Related places: a duplicate topic points at the first report of that topic, an index
out of range at the references list. The engine locates them; the CLI's JSON and SARIF
carry them, and they stay right in an editor's document after edits move the reports."""

from __future__ import annotations

import json

from citelens.check.engine import Checker
from citelens.session import TextChange, Workspace
from citelens.specs import resolve_spec
from tests.helpers.cli_capture import run
from tests.helpers.related_runs import first_topic_span, related_run, report


def _places(text: str, findings, code: str) -> list[list[tuple[str, str]]]:
    return [[(r.message, text[r.start : r.end]) for r in f.related] for f in findings if f.code == code]


def test_the_checker_locates_the_related_places():
    text = related_run()
    findings = Checker(resolve_spec("rag25")).check_text(text).findings
    (dup,) = [f for f in findings if f.code == "duplicate_topics"]
    (place,) = dup.related
    assert (place.start, place.end) == first_topic_span(text)
    assert "report 1" in place.message
    (index_finding,) = [f for f in findings if f.code == "reference_index"]
    (listed,) = index_finding.related
    second_line_start = text.index("\n") + 1
    assert listed.start == text.index('["msmarco', second_line_start)
    assert text[listed.start : listed.end] == json.dumps(report("8", 5)["references"])
    assert not any(f.related for f in findings if f.code not in ("duplicate_topics", "reference_index"))


def test_related_places_follow_edits_in_an_open_document(tmp_path):
    text = related_run()
    doc = Workspace((tmp_path,), init_options={"spec": "rag25"}).open(
        tmp_path.joinpath("r.jsonl").as_uri(), text
    )
    doc.result  # noqa: B018 (checked once, then edited)
    inserted = json.dumps(report("9", 0), ensure_ascii=False) + "\n"
    doc.apply_changes([TextChange(0, 0, inserted)], version=2)
    new_text = inserted + text
    got = doc.result.findings
    assert got == Checker(resolve_spec("rag25")).check_text(new_text).findings
    (dup,) = [f for f in got if f.code == "duplicate_topics"]
    start, end = first_topic_span(text)
    assert [(r.start, r.end) for r in dup.related] == [(start + len(inserted), end + len(inserted))]
    assert _places(new_text, got, "reference_index")[0][0][1].startswith('["msmarco')


def test_the_cli_json_and_sarif_carry_them(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    path.write_text(related_run(), encoding="utf-8")
    _, out, _ = run(capsys, "check", "--spec", "rag25", "--format", "json", path)
    findings = json.loads(out)["findings"]
    (dup,) = [f for f in findings if f["code"] == "duplicate_topics"]
    (place,) = dup["related"]
    first_line = related_run().split("\n")[0]
    column = first_line.index('"narrative_id": "7"') + len('"narrative_id": ') + 1
    assert (place["line"], place["column"], place["end_line"], place["end_column"]) == (
        1,
        column,
        1,
        column + 3,
    )
    assert all(
        "related" not in f for f in findings if f["code"] not in ("duplicate_topics", "reference_index")
    )

    _, out, _ = run(capsys, "check", "--spec", "rag25", "--format", "sarif", path)
    results = json.loads(out)["runs"][0]["results"]
    (sarif_dup,) = [r for r in results if r["ruleId"] == "duplicate_topics"]
    (related,) = sarif_dup["relatedLocations"]
    region = related["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (1, column, column + 3)
    assert related["message"]["text"] == place["message"]
    assert (
        related["physicalLocation"]["artifactLocation"]
        == sarif_dup["locations"][0]["physicalLocation"]["artifactLocation"]
    )
    (index_finding,) = [r for r in results if r["ruleId"] == "reference_index"]
    assert index_finding["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 2
