"""The autojudge-base names a user calls beyond the models: loading a folder of runs,
verifying a whole submission, and the spec helpers, compared with autojudge-base 1.0.0
on the sample runs."""

from __future__ import annotations

import json
import shutil
import warnings
from collections import Counter
from pathlib import Path

import pytest

from citelens.models import (
    Report,
    ReportVerification,
    ReportVerificationError,
    RunLoadWarning,
    load_report,
    load_runs_failsave,
)
from citelens.models.request import load_requests_from_file
from tests.helpers.reference_oracle import offline_nltk, reference

DATA = Path(__file__).parents[1] / "data"
RUNS, TOPICS = DATA / "runs", DATA / "topics"
KIDDIE_RUNS = sorted(RUNS.glob("kiddie_run*.jsonl"))


def _ref_io():
    offline_nltk()
    import autojudge_base.io as io

    return io


def _ref_verification():
    offline_nltk()
    import autojudge_base.report_verification as rv

    return rv


def _dumps(reports) -> list[tuple[str, str]]:
    return [(json.dumps(r.model_dump(mode="json"), sort_keys=True), str(r.path)) for r in reports]


# --- load_runs_failsave ---------------------------------------------------------------


def test_a_folder_of_good_runs_loads_as_the_reference_loads_it(tmp_path, capsys):
    runs = [*KIDDIE_RUNS, RUNS / "T1_run_1.head3.jsonl", RUNS / "organizer-gpt-oss-t2.jsonl"]
    for run in runs:
        shutil.copy(run, tmp_path / run.name)
    ours = load_runs_failsave(tmp_path)
    theirs = _ref_io().load_runs_failsave(tmp_path)
    capsys.readouterr()  # the reference prints every file name
    assert len(ours) == sum(len(load_report(run)) for run in runs) > 40
    assert _dumps(ours) == _dumps(theirs)


def test_runs_in_subfolders_are_found_three_levels_down(tmp_path):
    (tmp_path / "team-a" / "round1").mkdir(parents=True)
    (tmp_path / "team-b" / "x" / "y" / "too-deep").mkdir(parents=True)
    shutil.copy(KIDDIE_RUNS[0], tmp_path / "team-a" / "round1" / "run.jsonl")
    shutil.copy(KIDDIE_RUNS[1], tmp_path / "team-b" / "run.jsonl")
    shutil.copy(KIDDIE_RUNS[2], tmp_path / "team-b" / "x" / "y" / "too-deep" / "run.jsonl")
    (tmp_path / ".hidden.jsonl").write_text(KIDDIE_RUNS[3].read_text(encoding="utf-8"), encoding="utf-8")
    loaded = load_runs_failsave(tmp_path)
    sizes = [len(load_report(KIDDIE_RUNS[0])), len(load_report(KIDDIE_RUNS[1]))]
    assert [r.path for r in loaded] == [tmp_path / "team-a" / "round1" / "run.jsonl"] * sizes[0] + [
        tmp_path / "team-b" / "run.jsonl"
    ] * sizes[1]
    assert [r.metadata.run_id for r in loaded] == [
        r.metadata.run_id for r in load_report(KIDDIE_RUNS[0]) + load_report(KIDDIE_RUNS[1])
    ]


def test_broken_files_and_reports_are_skipped_with_their_place_named(tmp_path, capsys):
    lines = KIDDIE_RUNS[0].read_text(encoding="utf-8").splitlines()
    broken = [lines[0], '{"metadata": {"team_id": "t", "run_id": ', lines[1], '{"no": "report"}', lines[2]]
    (tmp_path / "a-broken.jsonl").write_text("\n".join(broken) + "\n", encoding="utf-8")
    (tmp_path / "b-binary.jsonl").write_bytes(b"\x00\xff\xfe\x81" * 50)
    (tmp_path / "c-good.jsonl").write_text(KIDDIE_RUNS[1].read_text(encoding="utf-8"), encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = load_runs_failsave(tmp_path)
    messages = [str(w.message) for w in caught if issubclass(w.category, RunLoadWarning)]
    assert [r.metadata.run_id for r in loaded] == [json.loads(x)["metadata"]["run_id"] for x in lines[:3]] + [
        r.metadata.run_id for r in load_report(KIDDIE_RUNS[1])
    ]
    assert any(m.startswith(f"{tmp_path / 'a-broken.jsonl'}:2:") and "not valid JSON" in m for m in messages)
    assert any(
        m.startswith(f"{tmp_path / 'a-broken.jsonl'}:4:1: report skipped: not a report") for m in messages
    )
    assert any(m.startswith(f"{tmp_path / 'b-binary.jsonl'}: skipped") for m in messages)
    # the reference stops at the first broken file (documented deviation)
    with pytest.raises(Exception):
        _ref_io().load_runs_failsave(tmp_path)
    capsys.readouterr()


# --- ReportVerification ---------------------------------------------------------------


def _kiddie_values() -> list[dict]:
    """Run 1's reports with one topic missing, one duplicated and one for an unknown topic."""
    values = [
        json.loads(line) for line in KIDDIE_RUNS[0].read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    assert len(values) >= 4
    unknown = json.loads(json.dumps(values[2]))
    unknown["metadata"] = {
        k: v for k, v in unknown["metadata"].items() if k not in ("narrative_id", "request_id")
    }
    unknown["metadata"]["topic_id"] = "not-a-kiddie-topic"
    return [*values[1:], values[1], unknown]


def _kiddie_submission():
    reports = []
    for value in _kiddie_values():
        report = Report.model_validate(value)
        report.path = KIDDIE_RUNS[0].absolute()
        reports.append(report)
    requests = {str(r.request_id): r for r in load_requests_from_file(TOPICS / "kiddie-topics.jsonl")}
    return reports, requests


def _ref_requests(path: Path) -> dict:
    ref = reference()
    return {str(r.request_id): r for r in ref.request.load_requests_from_file(path)}


def _ref_reports() -> list:
    ref = reference()
    out = []
    for value in _kiddie_values():
        loaded = ref.report.Report.model_validate(value)
        loaded.path = KIDDIE_RUNS[0].absolute()
        out.append(loaded)
    return out


def _shape(v) -> tuple:
    """What must agree: each record's kind, severity and report; not the wording."""
    return (
        v.ok,
        Counter((f.category, f.severity, f.topic, f.label) for f in v.findings if f.category != "spec"),
        sorted({(f.topic, f.severity) for f in v.findings if f.category == "spec"}),
    )


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("spec", ["kiddie", "rag26", "ragtime26", None])
def test_verification_of_a_submission_agrees_with_the_reference(spec, strict):
    submission, requests = _kiddie_submission()
    ours = ReportVerification(submission, spec, requests=requests, strict=strict).all()
    theirs = (
        _ref_verification()
        .ReportVerification(
            _ref_reports(), spec, requests=_ref_requests(TOPICS / "kiddie-topics.jsonl"), strict=strict
        )
        .all()
    )
    assert _shape(ours) == _shape(theirs)
    labels = {f.label for f in ours.findings if f.category != "spec"}
    assert labels >= {"MISSING", "NEW", "DUP"}


def test_coverage_records_name_the_topics():
    submission, requests = _kiddie_submission()
    v = ReportVerification(submission, "kiddie", requests=requests).coverage()
    by_label = {f.label: f.message for f in v.findings}
    missing = sorted(set(requests) - {str(r.metadata.topic_id) for r in submission})
    assert missing and all(t in by_label["MISSING"] for t in missing)
    assert "not-a-kiddie-topic" in by_label["NEW"]
    assert str(submission[0].metadata.topic_id) in by_label["DUP"]
    assert v.ok == 0  # coverage alone judges no single report


def test_narratives_must_copy_the_topic_text_under_an_exact_narrative_spec():
    (report,) = load_report(RUNS / "ragnarok_rag25_ag_baseline.example.jsonl")
    tid = str(report.metadata.topic_id)

    class Req:
        request_id = tid
        title = "a different text than the report's narrative"

    v = ReportVerification([report], "rag25", requests={tid: Req()}).exact_narratives()
    assert [(f.category, f.label, f.severity) for f in v.findings] == [("narrative", "NARRATIVE", "error")]
    Req.title = report.metadata.narrative
    assert ReportVerification([report], "rag25", requests={tid: Req()}).exact_narratives().findings == []


def test_without_topics_only_duplicates_are_checked():
    submission, _ = _kiddie_submission()
    v = ReportVerification(submission, "kiddie").coverage()
    assert [f.label for f in v.findings] == ["DUP"]


def test_raise_first_raises_on_errors_and_never_on_warnings():
    submission, requests = _kiddie_submission()
    with pytest.raises(ReportVerificationError):
        ReportVerification(submission, "kiddie", requests=requests).all().raise_first()
    clean = load_report(KIDDIE_RUNS[0])
    v = ReportVerification(clean, "kiddie").unique_topics().raise_first()
    assert v.errors == []


def test_strict_turns_every_warning_into_an_error():
    submission, requests = _kiddie_submission()
    relaxed = ReportVerification(submission, "kiddie", requests=requests).all()
    strict = ReportVerification(submission, "kiddie", requests=requests, strict=True).all()
    assert relaxed.warnings, "the kiddie spec treats duplicate topics as a smell"
    assert strict.warnings == []
    assert len(strict.errors) == len(relaxed.errors) + len(relaxed.warnings)


def test_per_report_records_carry_origin_and_the_engine_code():
    submission, requests = _kiddie_submission()
    v = ReportVerification(submission, "rag26", requests=requests).spec_compliant()
    spec_records = [f for f in v.findings if f.category == "spec"]
    assert spec_records
    for f in spec_records:
        assert f.origin is not None and f.origin[1:] == ("teamA", "run1")
        assert f.code and f.topic is not None


# --- write_submission_output ----------------------------------------------------------


@pytest.mark.parametrize("spec", ["rag26", "ragtime26", "kiddie", "dragun25"])
def test_submission_output_is_byte_for_byte_the_reference_file(tmp_path, spec):
    from citelens.convert import write_submission_output

    runs = [*KIDDIE_RUNS, RUNS / "T1_run_1.head3.jsonl"]
    ours = [r for run in runs for r in load_report(run)]
    theirs = [r for run in runs for r in reference().report.load_report(run)]
    n = write_submission_output(ours, tmp_path / "new" / "folder" / "ours.jsonl", spec)
    m = reference().report_export.write_submission_output(theirs, tmp_path / "theirs.jsonl", spec)
    assert n == m == len(ours)
    assert (tmp_path / "new" / "folder" / "ours.jsonl").read_bytes() == (
        tmp_path / "theirs.jsonl"
    ).read_bytes()


def test_submission_output_replaces_through_a_symlink_and_keeps_the_mode(tmp_path):
    from citelens.convert import write_submission_output

    real = tmp_path / "real.jsonl"
    real.write_text("old\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    write_submission_output(load_report(KIDDIE_RUNS[0]), link, "kiddie")
    assert link.is_symlink() and real.stat().st_mode & 0o777 == 0o640
    assert [json.loads(x)["metadata"]["run_id"] for x in real.read_text(encoding="utf-8").splitlines()] == [
        r.metadata.run_id for r in load_report(KIDDIE_RUNS[0])
    ]


# --- spec helpers ---------------------------------------------------------------------


def test_known_smell_categories_hold_the_references_and_ours():
    from citelens.specs import DEFAULT_SMELLS, KNOWN_SMELL_CATEGORIES

    ts = reference().track_spec
    assert set(ts.KNOWN_SMELL_CATEGORIES) <= set(KNOWN_SMELL_CATEGORIES)
    assert {"citation_duplicate", "run_consistency"} <= set(KNOWN_SMELL_CATEGORIES)
    assert "json_syntax" not in KNOWN_SMELL_CATEGORIES  # a structure error is never a smell
    assert set(DEFAULT_SMELLS) == set(ts.DEFAULT_SMELLS)


@pytest.mark.parametrize("track", ["rag26", "rag25", "ragtime26", "dragun25", "kiddie"])
def test_get_spec_with_a_task_refuses_a_spec_of_another_task(track):
    from citelens.specs import get_spec

    ts = reference().track_spec
    task = ts.get_spec(track).task
    assert get_spec(track, task=task).task == task
    assert get_spec(track, task=None) is get_spec(track)
    other = "repgen" if task == "generation" else "generation"
    with pytest.raises(KeyError):
        ts.get_spec(track, task=other)
    with pytest.raises(KeyError, match=f"for the '{task}' task, not '{other}'"):
        get_spec(track, task=other)


# --- TrackSpec.from_dict --------------------------------------------------------------


def _ref_dicts() -> dict[str, dict]:
    import yaml

    ts = reference().track_spec
    return yaml.safe_load(Path(ts.__file__).with_name("track_specs.yml").read_text(encoding="utf-8"))["specs"]


@pytest.mark.parametrize(
    "track", ["rag26", "rag25", "rag25-autojudge", "ragtime25", "ragtime26", "dragun25", "kiddie"]
)
def test_from_dict_builds_the_references_specs_from_its_own_tables(track):
    from citelens.specs import TrackSpec, get_spec

    table = _ref_dicts()[track]
    ours = TrackSpec.from_dict(table)
    theirs = reference().track_spec.TrackSpec.from_dict(table)
    for name in theirs.__dataclass_fields__:
        assert getattr(ours, name) == getattr(theirs, name) or set(getattr(ours, name)) == set(
            getattr(theirs, name)
        )
    assert ours.sentence_type == get_spec(track).sentence_type


def test_from_dict_takes_a_scalar_sentence_type():
    from citelens.specs import TrackSpec

    table = {**_ref_dicts()["rag26"], "sentence_type": "ragtime"}
    assert TrackSpec.from_dict(table).sentence_type == ("ragtime",)
    assert reference().track_spec.TrackSpec.from_dict(table).sentence_type == ("ragtime",)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"smells": ["empty_answer", "citation_fromat"]}, "citation_fromat"),
        ({"sentence_type": "rag42"}, "rag42"),
        ({"task": "summarize"}, "summarize"),
    ],
)
def test_from_dict_refuses_what_no_track_has(change, named):
    from citelens.specs import SpecError, TrackSpec

    table = {**_ref_dicts()["rag26"], **change}
    with pytest.raises(SpecError, match=named) as info:
        TrackSpec.from_dict(table)
    assert isinstance(info.value, ValueError)
    if "smells" in change:  # the reference refuses an unknown smell category too
        with pytest.raises(ValueError, match=named):
            reference().track_spec.TrackSpec.from_dict(table)


def test_from_dict_needs_the_track_id():
    from citelens.specs import TrackSpec

    with pytest.raises(KeyError):
        TrackSpec.from_dict({k: v for k, v in _ref_dicts()["rag26"].items() if k != "track"})
