"""The flat TREC RAG 2024 layout, read and written through the `rag24` spec."""

from __future__ import annotations

import json

from citelens.convert import convert, convert_value, report_from_value, submission_dict, word_count
from citelens.models import Report
from tests.helpers.reference_oracle import SAMPLES

FLAT = [json.loads(line) for line in (SAMPLES / "ragnarok_rag24_examples.jsonl").read_text().splitlines()]


def test_flat_lines_load_with_the_topic_as_narrative() -> None:
    report = report_from_value(FLAT[0], "rag24")
    assert report.metadata.topic_id == "23287"
    assert report.metadata.narrative == FLAT[0]["topic"]
    assert report.metadata.team_id == ""  # the flat layout has no team
    assert report.references == FLAT[0]["references"]


def test_flat_output_has_the_ragnarok_keys_in_order_and_the_computed_length() -> None:
    out, _ = convert_value(FLAT[0], "rag24", "rag24")
    assert list(out) == ["run_id", "topic_id", "topic", "references", "response_length", "answer"]
    assert out["response_length"] == word_count(s["text"] for s in FLAT[0]["answer"])
    assert out["response_length"] == FLAT[0]["response_length"]  # ragnarok's own count agrees


def test_word_count_is_per_sentence_stripped_nfkc_split() -> None:
    assert word_count(["  two words ", "ﬁne\u202fprint"]) == 4


def test_wrapped_reports_become_flat_lines() -> None:
    line = (SAMPLES / "ragnarok_rag25_ag_baseline.example.jsonl").read_text().splitlines()[0]
    source = Report.model_validate(json.loads(line))
    out = submission_dict(convert(source, "rag24"), "rag24")
    assert out["topic"] == source.metadata.narrative
    assert out["topic_id"] == "2" and out["run_id"] == source.metadata.run_id
    assert "metadata" not in out and "team_id" not in out
    assert out["response_length"] == len(source.get_text().split())


def test_team_id_can_be_supplied_when_leaving_the_flat_layout() -> None:
    out, notes = convert_value(
        FLAT[1], "rag24", "rag26", defaults={"team_id": "castorini", "run_desc": "baseline"}
    )
    assert out["metadata"]["team_id"] == "castorini" and out["metadata"]["run_desc"] == "baseline"
    assert out["metadata"]["narrative"] == FLAT[1]["topic"]
    assert not [n for n in notes if n.code == "metadata_unfilled"]


def test_a_wrong_declared_length_is_replaced_and_said_so() -> None:
    value = {**FLAT[0], "response_length": 3}
    out, notes = convert_value(value, "rag24", "rag24")
    assert out["response_length"] == FLAT[0]["response_length"]
    assert [n.pointer for n in notes if n.code == "response_length_recomputed"] == ["/response_length"]
