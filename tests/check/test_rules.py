"""Rule semantics a user notices: which code, which severity, for which input."""

from citelens.check import Checker, check_report
from citelens.specs import get_spec
from citelens.topics import parse_topics
from tests.helpers.report_factory import line, report


def codes(value, spec="rag26", **kw):
    return {(f.code, f.severity) for f in check_report(value, get_spec(spec) if spec else None, **kw)}


def test_clean_report_has_no_findings():
    assert codes(report()) == set()


def test_smells_are_warnings_and_strict_makes_them_errors():
    value = report(answer=[{"text": "x", "citations": [0, 1, 0, 1]}])
    assert ("citation_count", "warning") in codes(value)
    assert ("citation_count", "error") in codes(value, strict=True)


def test_empty_answer_stops_the_other_checks():
    value = report(answer=[])
    del value["metadata"]["run_desc"]
    assert codes(value) == {("empty_answer", "warning")}


def test_whole_id_match_rejects_prefix_matches():
    value = report(references=["shard_00001_1", "shard_1_2junk"])
    assert ("docid_pattern", "error") in codes(value)


def test_mixed_citation_shapes_are_an_error():
    value = report(answer=[{"text": "a", "citations": [0]}, {"text": "b", "citations": ["shard_00002_2"]}])
    assert ("citation_format", "error") in codes(value)


def test_track_rejects_a_shape_it_does_not_accept():
    value = {
        "metadata": {
            "team_id": "t",
            "topic_id": "msmarco_v2.1_doc_04_420132660",
            "run_id": "r",
            "type": "automatic",
            "use_starter_kit": 1,
        },
        "responses": [{"text": "a", "citations": {"msmarco_v2.1_doc_04_1#0_2": 1.0}}],
    }
    assert codes(value, "dragun25") == {("citation_format", "error")}


def test_ragtime_cited_only_references():
    doc = "5f91a162-7a1e-4e5e-af0e-6b1bab774964_374756147"
    other = "5f91a162-7a1e-4e5e-af0e-6b1bab774964_1"
    value = {
        "metadata": {"team_id": "t", "topic_id": "2000", "run_id": "r", "task": "english"},
        "responses": [{"text": "a", "citations": {doc: 0.9}}],
        "references": [other],
    }
    assert codes(value, "ragtime25") == {
        ("references_undeclared", "warning"),
        ("references_uncited", "error"),
    }


def test_length_limit_from_the_topic():
    topics = parse_topics('{"topic_id": "2000", "title": "t", "limit": 10}\n')
    doc = "5f91a162-7a1e-4e5e-af0e-6b1bab774964_374756147"
    value = {
        "metadata": {"team_id": "t", "topic_id": "2000", "run_id": "r", "run_desc": "d"},
        "responses": [{"text": "a sentence longer than ten characters", "citations": {doc: 1}}],
    }
    r = Checker(get_spec("ragtime26"), topics).check_text(line(value))
    [f] = r.findings
    assert f.code == "length" and "limit is 10" in f.message and f.severity == "warning"
    assert Checker(get_spec("ragtime26")).check_text(line(value)).findings == []


def test_rag24_flat_format_checks_the_declared_length_and_topic_text():
    topics = parse_topics("2024-1\twhat is x?\n")
    value = {
        "run_id": "r",
        "topic_id": "2024-1",
        "topic": "what is y?",
        "references": ["msmarco_v2.1_doc_51_766815931#2_1606878413"],
        "response_length": 9,
        "answer": [{"text": "X is a thing.", "citations": [0, 0]}],
    }
    r = Checker(get_spec("rag24"), topics).check_text(line(value))
    got = {(f.code, f.severity) for f in r.findings}
    assert got == {("response_length", "warning"), ("narrative", "error"), ("citation_duplicate", "warning")}


def test_official_dragun_profile_is_stricter():
    value = {
        "metadata": {
            "team_id": "t",
            "topic_id": "msmarco_v2.1_doc_04_420132660",
            "run_id": 7,
            "type": "semi",
            "use_starter_kit": 1,
            "note": "x",
        },
        "responses": [{"text": "a", "citations": ["msmarco_v2.1_doc_04_1#0_2"] * 4}],
    }
    got = codes(value, "dragun25-official")
    assert {
        ("metadata", "error"),
        ("id_type", "error"),
        ("metadata_value", "error"),
        ("citation_count", "error"),
    } <= got


def test_cross_report_duplicate_missing_new_topics():
    topics = parse_topics("rag2026-0\tN\nrag2026-1\tM\n")
    text = "\n".join(
        [
            line(report()),
            line(report()),
            line(report(metadata={**report()["metadata"], "narrative_id": "rag2026-9"})),
        ]
    )
    r = Checker(get_spec("rag26"), topics).check_text(text)
    got = {(f.code, f.severity, r.line_index.position(f.start)[0]) for f in r.findings}
    assert ("duplicate_topics", "error", 1) in got
    assert ("missing_topics", "warning", 0) in got
    assert ("new_topics", "error", 2) in got


def test_a_run_with_no_readable_report_misses_every_topic():
    topics = parse_topics("rag2026-0\tN\nrag2026-1\tM\n")
    r = Checker(get_spec("rag26"), topics).check_text("{not json\n[1, 2\n")
    (missing,) = [f for f in r.findings if f.code == "missing_topics"]
    assert missing.data["missing"] == ["rag2026-0", "rag2026-1"]


def test_cross_report_findings_sit_on_their_own_reports_token_when_read_from_a_file(tmp_path):
    """A file checked with several workers is read lazily (reports decoded on demand): each
    duplicate's span is its own report's topic id, not another report's of a different length."""
    ids = ["10", "3", "10", "3"]
    text = "\n".join(line(report(metadata={**report()["metadata"], "narrative_id": n})) for n in ids) + "\n"
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    r = Checker(get_spec("rag26"), workers=2).check_path(path)
    dups = [text[f.start : f.end] for f in r.findings if f.code == "duplicate_topics"]
    assert dups == ['"10"', '"3"']
    assert r.findings == Checker(get_spec("rag26")).check_text(text).findings


def test_severity_overrides_and_ignore():
    value = report(references=["shard_00001_1", "shard_00002_2", "shard_00003_3"])
    text = line(value)
    default = Checker(get_spec("rag26")).check_text(text).findings
    assert [(f.code, f.severity) for f in default] == [("references_uncited", "warning")]
    raised = Checker(get_spec("rag26"), overrides={"references_uncited": "error"}).check_text(text).findings
    assert [(f.code, f.severity) for f in raised] == [("references_uncited", "error")]
    assert (
        Checker(get_spec("rag26"), overrides={"references_uncited": "ignore"}).check_text(text).findings == []
    )


def test_no_spec_runs_structural_checks_only():
    value = report(answer=[{"text": " ", "citations": [5]}, {"text": "ok", "citations": [0]}])
    assert codes(value, None) == {("blank_sentence", "error"), ("reference_index", "error")}


def test_rechecking_after_one_line_changed_reruns_only_that_line(monkeypatch):
    from citelens.check import engine

    lines = [
        line(report(metadata={**report()["metadata"], "narrative_id": f"rag2026-{i}"})) for i in range(50)
    ]
    checker = Checker(get_spec("rag26"))
    checker.check_text("\n".join(lines))
    calls = []
    real = engine.run_rules
    monkeypatch.setattr(engine, "run_rules", lambda *a, **k: calls.append(1) or real(*a, **k))
    lines[10] = lines[10].replace('"shard_00002_2"]', '"bad id"]')
    r = checker.check_text("\n".join(lines))
    assert len(calls) == 1
    assert [(f.code, r.line_index.position(f.start)[0]) for f in r.findings][0] == ("docid_pattern", 10)


def test_report_that_is_not_an_object():
    assert codes([1, 2], "rag26") == {("schema", "error")}
    text = "[1, 2]\n"
    assert [f.code for f in Checker(get_spec("rag26")).check_text(text).findings] == ["schema", "schema"]
