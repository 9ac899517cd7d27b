"""`citelens schema --spec ID`: the JSON Schema of a spec's report accepts the real sample
runs of that spec, and rejects exactly the reports whose errors a schema can express
(`citelens check` is the oracle: the two must agree report by report)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from citelens.specs import builtin_specs
from citelens.specs.json_schema import report_schema
from tests.helpers.cli_capture import run

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "tests" / "data" / "runs"
EXAMPLES = ROOT / "examples"

#: the codes whose errors the schema expresses (the rest need topics, other reports,
#: word counts or index ranges: `citelens check` alone)
EXPRESSIBLE = {
    "schema",
    "metadata",
    "id_type",
    "metadata_value",
    "run_id_length",
    "docid_pattern",
    "citation_format",
    "citation_count",
    "references_max",
}

#: (spec, a real sample run of that spec)
SAMPLES = [
    ("rag24", RUNS / "ragnarok_rag24_examples.jsonl"),
    ("rag25", RUNS / "ragnarok_rag25_ag_baseline.example.jsonl"),
    ("ragtime26", RUNS / "T1_run_1.head3.jsonl"),
    ("ragtime26-nist", RUNS / "T1_run_1.head3.jsonl"),
    ("ragtime26", EXAMPLES / "ragtime26-run.jsonl"),
    ("dragun25", RUNS / "garag_rubric.jsonl"),
    ("dragun25", RUNS / "organizer-gpt-oss-t2.jsonl"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl"),
    ("dragun25-official", EXAMPLES / "dragun25-organizer-run.jsonl"),
    ("kiddie", RUNS / "kiddie_run1.jsonl"),
    ("kiddie", RUNS / "kiddie_run4.jsonl"),
    ("rag26", EXAMPLES / "rag26-with-mistakes.jsonl"),
]


def validator(spec_id: str) -> jsonschema.Draft202012Validator:
    schema = report_schema(builtin_specs()[spec_id], spec_id)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def expressible_errors(capsys: pytest.CaptureFixture[str], path: Path, spec_id: str) -> dict[int, set[str]]:
    """line -> the codes of its errors that a schema can express, as `citelens check` says."""
    _, out, _ = run(capsys, "check", path, "--spec", spec_id, "--format", "json")
    lines: dict[int, set[str]] = {}
    for f in json.loads(out)["findings"]:
        if f["severity"] == "error" and f["code"] in EXPRESSIBLE:
            lines.setdefault(f["line"], set()).add(f["code"])
    return lines


@pytest.mark.parametrize("spec_id", sorted(builtin_specs()))
def test_every_builtin_spec_has_a_valid_draft_2020_12_schema(spec_id: str) -> None:
    schema = report_schema(builtin_specs()[spec_id], spec_id)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert builtin_specs()[spec_id].sentences_key in schema["required"]


@pytest.mark.parametrize("spec_id, path", SAMPLES, ids=[f"{s}:{p.name}" for s, p in SAMPLES])
def test_the_schema_agrees_with_check_on_every_report_of_the_samples(
    capsys: pytest.CaptureFixture[str], spec_id: str, path: Path
) -> None:
    errors = expressible_errors(capsys, path, spec_id)
    check = validator(spec_id)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        rejected = [e.message for e in check.iter_errors(json.loads(line))]
        assert bool(rejected) == (number in errors), (number, rejected, errors.get(number))


def _report(path: Path, line: int = 0) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").splitlines()[line])
    return report


def _seeded(report: dict[str, Any], change: str) -> dict[str, Any]:
    r = copy.deepcopy(report)
    md = r.get("metadata", r)
    sentences = r.get("responses") or r.get("answer")
    if change == "long run id":
        md["run_id"] = "x" * 40
    elif change == "no team id":
        del md["team_id"]
    elif change == "blank team id":
        md["team_id"] = "  "
    elif change == "bad doc id":
        sentences[0]["citations"] = ["not-a-doc-id"]
    elif change == "ragtime citations":
        sentences[0]["citations"] = {"msmarco_v2.1_doc_16_1041913392#3_1268938142": 0.5}
    elif change == "four citations":
        sentences[0]["citations"] = ["msmarco_v2.1_doc_16_1041913392#3_1268938142"] * 4
    elif change == "extra metadata key":
        md["favourite_colour"] = "blue"
    elif change == "unknown type value":
        md["type"] = "semi-automatic"
    elif change == "numeric run id":
        md["run_id"] = 7
    elif change == "text not a string":
        sentences[0]["text"] = 12
    elif change == "no sentences":
        r.pop("responses", None)
        r.pop("answer", None)
    elif change == "101 references":
        r["references"] = ["msmarco_v2.1_doc_16_1041913392#3_1268938142"] * 101
    return r


#: (spec, sample, the change, the code `citelens check` reports for it)
SEEDED = [
    ("rag26", EXAMPLES / "rag26-with-mistakes.jsonl", "long run id", "run_id_length"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "no team id", "metadata"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "blank team id", "metadata"),
    ("dragun25", RUNS / "garag_rubric.jsonl", "bad doc id", "docid_pattern"),
    ("dragun25", RUNS / "garag_rubric.jsonl", "ragtime citations", "citation_format"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "four citations", "citation_count"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "extra metadata key", "metadata"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "unknown type value", "metadata_value"),
    ("dragun25-official", RUNS / "organizer-gpt-oss-t2.jsonl", "numeric run id", "id_type"),
    ("kiddie", RUNS / "kiddie_run1.jsonl", "text not a string", "schema"),
    ("ragtime26", RUNS / "T1_run_1.head3.jsonl", "no sentences", "schema"),
    ("rag25", RUNS / "ragnarok_rag25_ag_baseline.example.jsonl", "101 references", "references_max"),
]


@pytest.mark.parametrize("spec_id, path, change, code", SEEDED, ids=[s[2] for s in SEEDED])
def test_seeded_mistakes_are_rejected_by_the_schema_and_by_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, spec_id: str, path: Path, change: str, code: str
) -> None:
    line = 2 if path.name == "rag26-with-mistakes.jsonl" else 0  # its third report is schema-clean
    original = _report(path, line)
    check = validator(spec_id)
    assert not list(check.iter_errors(original))
    seeded = _seeded(original, change)
    assert list(check.iter_errors(seeded)), f"the {spec_id} schema accepts a report with {change}"
    bad = tmp_path / "seeded.jsonl"
    bad.write_text(json.dumps(seeded) + "\n", encoding="utf-8")
    assert code in expressible_errors(capsys, bad, spec_id).get(1, set())


def test_a_smell_is_not_enforced_by_the_schema() -> None:
    """rag26 reports > 3 citations as a warning: the schema leaves it to `citelens check`."""
    assert "citation_count" in builtin_specs()["rag26"].smells
    report = _report(EXAMPLES / "rag26-with-mistakes.jsonl", 2)
    assert len(report["answer"][0]["citations"]) == 4
    assert not list(validator("rag26").iter_errors(report))


def test_the_command_prints_the_schema_and_writes_it_without_overwriting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "schema", "--spec", "ragtime26")
    assert code == 0 and json.loads(out) == report_schema(builtin_specs()["ragtime26"], "ragtime26")
    target = tmp_path / "ragtime26.schema.json"
    target.write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "schema", "--spec", "ragtime26", "-o", target)
    assert code == 2 and "exists; give --force" in err and target.read_text(encoding="utf-8") == "mine"
    assert run(capsys, "schema", "--spec", "ragtime26", "-o", target, "--force")[0] == 0
    assert json.loads(target.read_text(encoding="utf-8"))["title"] == "One report of a ragtime26 run"
    code, _, err = run(capsys, "schema", "--spec", "rag2027")
    assert code == 2 and "unknown track spec 'rag2027'" in err and "Traceback" not in err
