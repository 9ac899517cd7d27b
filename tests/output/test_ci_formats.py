"""A checked run -> GitHub annotations and a SARIF log that code scanning accepts."""

from __future__ import annotations

import json
from pathlib import Path

from citelens.check.finding import Finding
from citelens.check.result import FileResult
from citelens.cli.output import render_github, render_sarif, sarif_log
from citelens.source.line_index import LineIndex
from tests.helpers.run_results import run_results
from tests.helpers.sarif_shape import sarif_violations


def test_github_annotations_one_per_finding_with_info_as_notice() -> None:
    lines = render_github(run_results()).splitlines()
    assert lines[0] == (
        "::error file=runs/a.jsonl,line=1,col=1,endLine=1,endColumn=9,"
        "title=citelens json_syntax::line 1 is not JSON"
    )
    assert lines[1].startswith("::notice file=runs/b.jsonl,line=1,col=1,endLine=1,endColumn=2,")
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::notice", "::warning", "::error"]


def test_github_escapes_data_and_properties() -> None:
    result = FileResult(
        "dir/a,b:c%.jsonl",
        LineIndex("x\n"),
        [Finding("length", "warning", "50% too long:\r\nsee, here", start=0, end=1)],
    )
    (line,) = render_github([result]).splitlines()
    assert line == (
        "::warning file=dir/a%2Cb%3Ac%25.jsonl,line=1,col=1,endLine=1,endColumn=2,"
        "title=citelens length::50%25 too long:%0D%0Asee, here"
    )


def test_github_paths_are_relative_to_the_repository_root(tmp_path: Path) -> None:
    result = FileResult(
        str(tmp_path / "runs" / "x.jsonl"), LineIndex("x"), [Finding("schema", "error", "m", start=0, end=1)]
    )
    assert "file=runs/x.jsonl," in render_github([result], base=tmp_path)


def test_sarif_log_meets_the_schema_essentials() -> None:
    log = json.loads(render_sarif(run_results()))
    assert sarif_violations(log) == []
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "citelens"
    assert run["columnKind"] == "unicodeCodePoints"
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == [
        "docid_pattern",
        "empty_answer",
        "json_syntax",
        "missing_topics",
    ]  # only codes that occur
    assert {r["ruleId"]: r["level"] for r in run["results"]} == {
        "json_syntax": "error",
        "missing_topics": "note",
        "empty_answer": "warning",
        "docid_pattern": "error",
    }
    bad = next(r for r in run["results"] if r["ruleId"] == "docid_pattern")
    region = bad["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == region["endLine"] == 2
    assert region["endColumn"] - region["startColumn"] == len('"bad-id"')
    assert bad["properties"] == {"topic_id": "2001"}


def test_sarif_rule_descriptions_come_from_the_registry() -> None:
    summaries = {"docid_pattern": "Cited doc ids must match the track's pattern"}
    by_dict = sarif_log(run_results(), rule_summary=summaries)
    by_callable = sarif_log(
        run_results(),
        rule_summary=lambda code: summaries.get(code, code.upper()),
        rule_help_uri=lambda code: f"https://example.org/rules/{code}",
    )
    rules = {r["id"]: r for r in by_dict["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["docid_pattern"]["shortDescription"]["text"] == summaries["docid_pattern"]
    assert rules["json_syntax"]["shortDescription"]["text"] == "json_syntax"
    rules = {r["id"]: r for r in by_callable["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["json_syntax"]["shortDescription"]["text"] == "JSON_SYNTAX"
    assert rules["json_syntax"]["helpUri"] == "https://example.org/rules/json_syntax"
    assert sarif_violations(by_callable) == []


def test_sarif_uris_are_relative_with_forward_slashes_and_encoded(tmp_path: Path) -> None:
    inside = FileResult(
        str(tmp_path / "my runs" / "a.jsonl"),
        LineIndex("x"),
        [Finding("schema", "error", "m", start=0, end=1)],
    )
    outside = FileResult(
        "/elsewhere/b.jsonl", LineIndex("x"), [Finding("schema", "error", "m", start=0, end=1)]
    )
    log = sarif_log([inside, outside], base=tmp_path)
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]
    ]
    assert uris == ["file:///elsewhere/b.jsonl", "my%20runs/a.jsonl"]
    assert sarif_violations(log) == []


def test_sarif_for_a_clean_run_is_still_a_valid_log() -> None:
    log = sarif_log([FileResult("runs/ok.jsonl", LineIndex("{}\n"), [], reports=1)])
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []
    assert sarif_violations(log) == []


def test_the_structural_check_catches_broken_logs() -> None:
    log = sarif_log(run_results())
    log["runs"][0]["results"][0]["level"] = "fatal"
    log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startColumn"] = 0
    log["runs"][0]["results"][2]["ruleId"] = "nope"
    problems = sarif_violations(log)
    assert len(problems) == 4
    assert any("level" in p for p in problems) and any("startColumn" in p for p in problems)
    assert any("ruleId must name" in p for p in problems) and any("ruleIndex" in p for p in problems)


def test_sarif_from_the_cli_links_every_rule_to_its_documentation(tmp_path: Path, capsys) -> None:
    """`citelens check --format sarif`: each rule's `helpUri` opens its `## CODE` section."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    from citelens.check.catalog import docs_uri
    from citelens.cli import main

    run = tmp_path / "run.jsonl"
    run.write_text(
        'not json\n{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": []}\n',
        encoding="utf-8",
    )
    assert main(["check", str(run), "--spec", "rag26", "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {"json_syntax", "empty_answer"}
    for rule in rules:
        uri = urlsplit(rule["helpUri"])
        assert rule["helpUri"] == docs_uri(rule["id"]) and uri.fragment == rule["id"]
        doc = Path(url2pathname(uri.path)).read_text(encoding="utf-8")
        assert f"\n## {rule['id']}\n" in doc
    assert sarif_violations(log) == []
