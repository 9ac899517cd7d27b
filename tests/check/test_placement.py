"""Every finding sits on the token that causes it (never an empty range)."""

import json

from citelens.check import Checker
from citelens.specs import get_spec
from tests.helpers.report_factory import line, report


def findings(text, spec="rag26", topics=None):
    r = Checker(get_spec(spec) if spec else None, topics).check_text(text)
    return r, [(f.code, text[f.start : f.end], r.line_index.position(f.start)) for f in r.findings]


def test_bad_doc_id_sits_on_the_id_string():
    text = line(report(references=["shard_00001_1", "shard_1_2junk"]))
    _, got = findings(text)
    assert ("docid_pattern", '"shard_1_2junk"', (0, text.index('"shard_1_2junk"'))) in got


def test_out_of_range_index_sits_on_the_index():
    value = report(answer=[{"text": "a", "citations": [0, 7]}])
    text = line(value)
    _, got = findings(text)
    assert ("reference_index", "7", (0, text.index("7]"))) in got


def test_missing_key_sits_on_parent_key_and_extra_key_on_its_key():
    value = report()
    del value["metadata"]["run_desc"]
    text = line(value)
    _, got = findings(text)
    assert ("metadata", '"metadata"', (0, 1)) in got


def test_missing_metadata_object_sits_on_the_opening_brace():
    text = line({"answer": [{"text": "x", "citations": []}], "references": []})
    _, got = findings(text)
    assert ("schema", "{", (0, 0)) in got


def test_ragtime_doc_id_sits_on_the_map_key():
    value = {
        "metadata": {"team_id": "t", "topic_id": "1", "run_id": "r"},
        "responses": [{"text": "x", "citations": {"not-a-uuid": 0.5}}],
    }
    text = line(value)
    _, got = findings(text, "ragtime26")
    assert ("docid_pattern", '"not-a-uuid"', (0, text.index('"not-a-uuid"'))) in got


def test_positions_on_later_lines_and_after_blank_and_crlf_lines():
    good = line(report())
    bad = line(report(references=["shard_00001_1", "nope"]))
    text = (
        good
        + "\r\n\r\n"
        + good.replace("rag2026-0", "rag2026-1")
        + "\r"
        + bad.replace("rag2026-0", "rag2026-2")
    )
    r, got = findings(text)
    (code, token, (ln, col)), _cite = [g for g in got if g[0] == "docid_pattern"]
    assert token == '"nope"' and ln == 3 and col == bad.index('"nope"')


def test_unicode_line_separator_inside_a_string_is_not_a_line_break():
    value = report()
    value["answer"][0]["text"] = "before\u2028after"
    text = (
        line(value).replace("\\u2028", "\u2028")
        + "\n"
        + line(report(references=["x"])).replace("rag2026-0", "rag2026-1")
    )
    r, got = findings(text)
    assert all(pos[0] == 1 for code, _, pos in got if code == "docid_pattern")


def test_syntax_error_at_exact_character_and_other_lines_still_checked():
    good = line(report())
    text = (
        good
        + "\n"
        + '{"metadata": {"team_id": "t",, }\n'
        + line(report(references=["bad"])).replace("rag2026-0", "rag2026-1")
    )
    r, got = findings(text)
    syntax = [g for g in got if g[0] == "json_syntax"]
    assert syntax == [("json_syntax", ",", (1, 29))]
    assert any(g[0] == "docid_pattern" and g[2][0] == 2 for g in got)


def test_json_array_of_reports_over_many_lines():
    values = [report(), report(references=["shard_00001_1", "oops"])]
    values[1]["metadata"]["narrative_id"] = "rag2026-1"
    text = json.dumps(values, indent=2)
    r, got = findings(text)
    (code, token, (ln, col)), _cite = [g for g in got if g[0] == "docid_pattern"]
    assert token == '"oops"' and text.splitlines()[ln][col : col + 6] == '"oops"'
    assert r.reports == 2


def test_single_pretty_printed_report():
    text = json.dumps(report(references=["shard_00001_1", "oops"]), indent=2)
    r, got = findings(text)
    assert r.reports == 1
    # once on the reference entry, once on the index that cites it
    assert [g[1] for g in got if g[0] == "docid_pattern"] == ['"oops"', "1"]


def test_spans_are_never_empty():
    text = line(report(answer=[])) + "\n" + "{" + "\n" + '{"a": 1, "a": 2}'
    r = Checker(get_spec("rag26")).check_text(text)
    assert r.findings and all(f.end > f.start for f in r.findings)


def test_duplicate_key_points_at_the_second_key():
    text = '{"metadata": {"team_id": "t", "team_id": "u"}}'
    _, got = findings(text, spec=None)
    assert ("duplicate_key", '"team_id"', (0, text.rindex('"team_id"'))) in got
