"""CiteLens agrees with autojudge-base 1.0.0 on every report the reference can load.

Story: a team checks its run with both tools. For each report line the reference can
load, both name the same problems (category and severity; we may point at each
offending token where the reference says it once per report). A line the reference
cannot load at all gets at least one error from us, never silence. Across the file both
name the same topic-coverage problems about the same topics.

Inputs: the real sample runs in tests/data/runs/ (see tests/data/PROVENANCE.md) and seeded generated runs
with seeded faults for every shared spec (generate.py), each checked against every
shared spec, with and without a topics file. CITELENS_AGREEMENT_SCALE=10 runs ten times
as many generated reports (and more seeds); the default keeps this file well under a
minute.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from citelens.check import Checker
from citelens.specs import get_spec
from citelens.topics import load_topics
from tests.helpers import agreement_compare as C
from tests.helpers import agreement_reference as R
from tests.helpers.sample_data import RUNS, TOPICS

DATA = RUNS
SCALE = int(os.environ.get("CITELENS_AGREEMENT_SCALE", "1"))
OWN_N = 500 * SCALE  # reports per generated run, checked against its own spec
CROSS_N = 60 * SCALE  # of those, checked against every other shared spec too
SEEDS = range(1, 1 + (3 if SCALE > 1 else 1))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, C.Outcome]:
    """spec id of the generated run -> the merged outcome of all its comparisons."""
    tmp = tmp_path_factory.mktemp("agreement")
    return {gen: C.run_generated(gen, OWN_N, CROSS_N, SEEDS, tmp) for gen in R.SHARED_SPECS}


def _explain(outcome: C.Outcome) -> str:
    shown = "\n".join(str(m) for m in outcome.mismatches[:15])
    kinds = Counter(m.kind for m in outcome.mismatches)
    return f"{len(outcome.mismatches)} mismatches {dict(kinds)}:\n{shown}"


@pytest.mark.slow  # generates and checks a run per shared spec with both tools
@pytest.mark.parametrize("gen", R.SHARED_SPECS)
def test_generated_run_agrees_with_the_reference(generated, gen):
    outcome = generated[gen]
    assert outcome.compared > 0 and outcome.unloadable > 0
    assert not outcome.mismatches, _explain(outcome)


def test_generated_runs_reach_every_reference_category(generated):
    """The faults really exercise the rules: every category the reference can emit on a
    loadable report under these specs shows up (citation_score cannot: pydantic turns
    every loadable score into a float; references_present needs references_kind none,
    which no shared spec uses)."""
    seen = Counter()
    for outcome in generated.values():
        seen.update(outcome.categories)
    expected = {
        "empty_answer",
        "blank_sentence",
        "citation_format",
        "citation_count",
        "reference_index",
        "docid_pattern",
        "references_missing",
        "references_duplicate",
        "references_undeclared",
        "references_uncited",
        "references_max",
        "metadata",
        "metadata_recommended",
        "run_id_length",
        "length",
        "duplicate_topics",
        "missing_topics",
        "new_topics",
        "narrative",
    }
    assert expected <= set(seen), expected - set(seen)


def test_documented_deviations_occur_and_are_the_only_differences(generated):
    deviations = Counter()
    for outcome in generated.values():
        deviations.update(outcome.deviations)
    assert deviations["docid_prefix"] > 0
    assert deviations["coercion"] > 0
    # what the raw coerced tokens add is only ever these categories
    assert {k.split(":")[1] for k in deviations if k.startswith("coercion:")} <= {
        "reference_index",
        "citation_score",
        "references_uncited",
        "references_undeclared",
        "docid_pattern",
    }


# --- the documented deviations, one by one ----------------------------------------


def _ref_categories(value: dict, spec_id: str, *, anchored: bool) -> set[str]:
    report = R.load(value)
    assert report is not None
    return {c for c, _ in R.report_categories(report, spec_id, None, anchored=anchored)}


def _ours(value: dict, spec_id: str):
    text = json.dumps(value)
    return text, Checker(get_spec(spec_id)).check_text(text + "\n").findings


@pytest.mark.parametrize(
    "spec_id, good, prefix_only",
    [
        ("rag26", "shard_00459_61697", "shard_00459_61697junk"),
        (
            "ragtime26",
            "5f91a162-7a1e-4e5e-af0e-6b1bab774964_374756147",
            "5f91a162-7a1e-4e5e-af0e-6b1bab774964_374756147#p1",
        ),
        (
            "dragun25",
            "msmarco_v2.1_doc_16_1992489241#0_2215051056",
            "msmarco_v2.1_doc_16_1992489241#0_2215051056 ",
        ),
    ],
)
def test_docid_is_matched_as_a_whole_where_the_reference_matches_a_prefix(spec_id, good, prefix_only):
    spec = get_spec(spec_id)
    md = {
        "team_id": "t",
        "run_id": "r",
        spec.topic_id_field: "1",
        "narrative": "n",
        "run_desc": "d",
        "type": "automatic",
        "use_starter_kit": 0,
    }
    value = {
        "metadata": md,
        "references": [good, prefix_only],
        spec.sentences_key: [{"text": "Some text.", "citations": [good, prefix_only]}],
    }
    assert "docid_pattern" not in _ref_categories(value, spec_id, anchored=False)  # the library's re.match
    assert "docid_pattern" in _ref_categories(value, spec_id, anchored=True)
    text, findings = _ours(value, spec_id)
    flagged = {text[f.start : f.end] for f in findings if f.code == "docid_pattern"}
    assert flagged == {json.dumps(prefix_only)}  # the bad id's tokens, in citations and references


@pytest.mark.parametrize(
    "spec_id, citations, references, code",
    [
        ("ragtime26", {"5f91a162-7a1e-4e5e-af0e-6b1bab774964_1": "0.5"}, None, "citation_score"),
        ("ragtime26", {"5f91a162-7a1e-4e5e-af0e-6b1bab774964_1": True}, None, "citation_score"),
        ("rag26", [True], ["shard_1_2", "shard_1_3"], "reference_index"),
        ("rag26", [1.0], ["shard_1_2", "shard_1_3"], "reference_index"),
    ],
)
def test_coerced_scores_and_indices_are_findings_here(spec_id, citations, references, code):
    spec = get_spec(spec_id)
    md = {"team_id": "t", "run_id": "r", spec.topic_id_field: "1", "narrative": "n", "run_desc": "d"}
    value = {"metadata": md, spec.sentences_key: [{"text": "Some text.", "citations": citations}]}
    if references is not None:
        value["references"] = references
    assert code not in _ref_categories(value, spec_id, anchored=True)  # pydantic coerced it
    text, findings = _ours(value, spec_id)
    hits = [f for f in findings if f.code == code]
    assert hits and hits[0].severity == "error"
    token = text[hits[0].start : hits[0].end]
    assert token in ('"0.5"', "true", "1.0")


# --- real sample runs ------------------------------------------------------------

SAMPLES = [
    "ragnarok_rag25_ag_baseline.example.jsonl",
    "T1_run_1.head3.jsonl",
    "garag_rubric.jsonl",
    "organizer-gpt-oss-t2.jsonl",
    "kiddie_run1.jsonl",
    "kiddie_run2.jsonl",
    "kiddie_run3.jsonl",
    "kiddie_run4.jsonl",
    "spotcheck_my_best_run_01.jsonl",
    "spotcheck_my_best_run_02.jsonl",
    "spotcheck_my_best_run_02_with_citations.jsonl",
]


@pytest.mark.parametrize("spec_id", R.SHARED_SPECS)
def test_real_sample_runs_agree_under_every_spec(spec_id):
    total = C.Outcome()
    for name in SAMPLES:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        total.merge(C.compare_lines(lines, spec_id, None))
    kiddie_topics = R.load_requests(TOPICS / "kiddie-topics.jsonl")
    ours = load_topics(TOPICS / "kiddie-topics.jsonl")
    for n in range(1, 5):
        lines = (DATA / f"kiddie_run{n}.jsonl").read_text(encoding="utf-8").splitlines()
        total.merge(C.compare_lines(lines, spec_id, kiddie_topics, topics=ours))
    assert total.loadable > 0
    assert not total.mismatches, _explain(total)


@pytest.mark.parametrize("spec_id", R.SHARED_SPECS)
def test_flat_rag24_lines_cannot_load_in_the_reference_and_are_errors_here(spec_id):
    lines = (DATA / "ragnarok_rag24_examples.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(R.load_line(line) is None for line in lines)
    outcome = C.compare_lines(lines, spec_id, None)
    assert outcome.unloadable == len(lines) and not outcome.mismatches, _explain(outcome)


UNLOADABLE = [
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a", "citations": []}',
    '{"metadata": {"team_id": 7, "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"citations": []}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": 5}]}',
    '{"metadata": {"team_id": "t", "run_id": "r"}, "responses": [{"text": "a"}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "narrative_id": "2"}, "responses": [{"text": "a"}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a", "citations": ["d", 1]}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a", "citations": {"d": null}}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a", "citations": {"d": '
    + "9" * 400
    + "}}]}",
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a", "citations": [1]}, {"text": "b", "citations": ["d"]}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}], "references": [1]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}], "documents": {"d": {"text": "x"}}}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}], "ranking": [{"doc_id": "d"}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "task": "bogus"}, "responses": [{"text": "a"}]}',
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}]} x',
    '[{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, "responses": [{"text": "a"}]}]',
    '"a report"',
    "\ufeff{}",
]


@pytest.mark.parametrize("spec_id", R.SHARED_SPECS)
def test_every_line_the_reference_cannot_load_is_an_error_here(spec_id):
    assert all(R.load_line(line) is None for line in UNLOADABLE)
    outcome = C.compare_lines(UNLOADABLE, spec_id, None)
    assert outcome.unloadable == len(UNLOADABLE)
    assert not outcome.mismatches, _explain(outcome)


@pytest.mark.parametrize("first", [UNLOADABLE[0], UNLOADABLE[0][:20], UNLOADABLE[-3]])
def test_a_broken_first_line_does_not_hide_the_rest_of_a_jsonl_run(first):
    """A truncated first line (or a first line holding an array) is one finding on that
    line; every other line is still a report with its own findings."""
    lines = (
        [first]
        + [line for line in UNLOADABLE[1:8]]
        + [
            '{"metadata": {"team_id": "t", "run_id": "'
            + "r" * 30
            + '", "topic_id": "9"}, "responses": [{"text": "a"}]}'
        ]
    )
    outcome = C.compare_lines(lines, "ragtime26", None)
    assert outcome.loadable == 1 and outcome.unloadable == len(lines) - 1
    assert not outcome.mismatches, _explain(outcome)


@pytest.mark.parametrize("spec_id", R.SHARED_SPECS)
def test_strict_mode_agrees_too(spec_id, tmp_path):
    """`--strict` here and `ReportVerification(strict=True)` there: every smell an error."""
    from tests.helpers.report_factory import generate_run

    lines, topics = generate_run(spec_id, 150, 3)
    requests, ours = C.write_requests(tmp_path / "topics.jsonl", topics)
    total = C.Outcome()
    for req in (None, requests):
        total.merge(C.compare_lines(lines, spec_id, req, topics=ours if req else None, strict=True))
    assert total.loadable > 50
    assert not total.mismatches, _explain(total)


# --- deviations in reading and in what a run is -------------------------------------


def test_nesting_beyond_the_limit_is_an_error_here_though_the_reference_loads_it_up_to_about_985():
    from citelens.source.json_scan import MAX_DEPTH

    base = {
        "metadata": {"team_id": "t", "run_id": "r", "narrative_id": "1", "narrative": "n", "run_desc": "d"},
        "references": ["shard_1_2"],
        "answer": [{"text": "Some text.", "citations": [0]}],
    }

    def line(depth: int) -> str:
        return json.dumps(base)[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"

    assert R.load_line(line(MAX_DEPTH + 100)) is not None  # the reference loads it
    with pytest.raises(RecursionError):  # ... and fails a few hundred levels deeper
        R.load_line(line(990))
    for depth in (MAX_DEPTH, MAX_DEPTH + 100, 990):  # with the report object: one level more
        findings = Checker(get_spec("rag26")).check_text(line(depth) + "\n").findings
        assert [(f.code, f.severity) for f in findings] == [("json_syntax", "error")]
        assert f"nesting deeper than {MAX_DEPTH} levels" in findings[0].message
    assert Checker(get_spec("rag26")).check_text(line(MAX_DEPTH - 1) + "\n").findings == []


def test_files_of_a_directory_are_separate_runs_where_the_reference_pools_them(tmp_path, capsys):
    from citelens.cli import main

    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("kiddie_run1.jsonl", "kiddie_run2.jsonl"):
        (runs / name).write_bytes((DATA / name).read_bytes())
    requests = R.load_requests(TOPICS / "kiddie-topics.jsonl")
    pooled = [R.load_line(line) for f in sorted(runs.iterdir()) for line in f.read_text().splitlines()]
    assert all(r is not None for r in pooled)
    # the reference's `check DIR --topics` verifies every report of every file together
    assert "duplicate_topics" in {c for c, _ in R.coverage_categories(pooled, "kiddie", requests)}
    for f in sorted(runs.iterdir()):  # each file alone has one report per topic
        alone = [R.load_line(line) for line in f.read_text().splitlines()]
        assert not {c for c, _ in R.coverage_categories(alone, "kiddie", requests)} & {"duplicate_topics"}
    assert (
        main(["check", str(runs), "--spec", "kiddie", "--topics", str(TOPICS / "kiddie-topics.jsonl")]) == 0
    )
    out = capsys.readouterr().out
    assert "duplicate_topics" not in out and "in 2 files" in out
