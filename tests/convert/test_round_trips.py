"""A → B → A loses only what B cannot express, and these tests name it.

What B cannot express, by its spec:
- confidences, when B's sentences are neuclir or rag24: they come back as 1/rank;
- references nobody cites, when B is `cited_only`;
- metadata keys B does not list (e.g. `narrative` and `type` through RAGTIME, `task`
  through RAG);
- citations beyond B's cap, when B enforces one (no shared spec does: they all treat
  `citation_count` as a smell).
Everything else, the order of every sentence's citations in particular, comes back.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from citelens.convert import convert, convert_value, submission_dict
from citelens.models import Report
from citelens.specs import get_spec
from tests.helpers.reference_oracle import SAMPLES, SHARED_SPECS
from tests.helpers.report_factory import generate_reports

REPORTS = [Report.model_validate(v) for v in generate_reports(seed=99, count=60)]


def ids(report: Report) -> list[list[str]]:
    return [s.citations or [] for s in report.get_sentences_with_citations()]


def scores(report: Report) -> list[Any]:
    return [s.citations for s in report.get_sentences_with_citation_confidences()]


@pytest.mark.parametrize("via", SHARED_SPECS)
@pytest.mark.parametrize("home", SHARED_SPECS)
def test_round_trip_keeps_citation_order_and_loses_only_what_the_middle_cannot_say(
    home: str, via: str
) -> None:
    a, b = get_spec(home), get_spec(via)
    for source in REPORTS:
        direct = convert(source, a)
        back = convert(convert(source, b), a)
        assert ids(back) == ids(direct)
        assert [t for t in back.get_sentences()] == direct.get_sentences()
        if b.emit_sentence_type == "ragtime":
            assert scores(back) == scores(direct)  # the confidences made it through
        if b.references_kind != "cited_only":
            assert set(direct.references or []) <= set(back.references or [])
        kept = set(b.mandatory_metadata) | set(b.recommended_metadata) | {"team_id", "run_id"}
        for key in (*a.mandatory_metadata, *a.recommended_metadata):
            if key in kept or key == a.topic_id_field:
                assert getattr(back.metadata, key) == getattr(direct.metadata, key), key
            else:
                assert getattr(back.metadata, key) is None, key  # B dropped it


def test_ragtime_through_rag_loses_scores_but_not_order() -> None:
    line = (SAMPLES / "T1_run_1.head3.jsonl").read_text(encoding="utf-8").splitlines()[0]
    source = Report.model_validate(json.loads(line))
    back = convert(convert(source, "rag26"), "ragtime26")
    assert ids(back) == ids(source)
    for sentence in back.responses or []:
        assert sorted(sentence.citations.values(), reverse=True) == [
            1 / r for r in range(1, len(sentence.citations) + 1)
        ]  # type: ignore[union-attr]


def test_rag25_through_ragtime26_keeps_references_and_positions_but_not_narrative() -> None:
    line = (SAMPLES / "ragnarok_rag25_ag_baseline.example.jsonl").read_text(encoding="utf-8").splitlines()[0]
    value = json.loads(line)
    out, _ = convert_value(value, "rag25", "ragtime26")
    back, notes = convert_value(out, "ragtime26", "rag25")
    assert back["references"] == value["references"]
    assert [s["citations"] for s in back["answer"]] == [s["citations"] for s in value["answer"]]
    assert back["metadata"]["narrative"] is None and back["metadata"]["type"] is None
    assert {n.data.get("key") for n in notes if n.code == "metadata_unfilled"} == {"type", "narrative"}


def test_flat_rag24_through_rag25_comes_back_with_a_string_topic_id() -> None:
    for line in (SAMPLES / "ragnarok_rag24_examples.jsonl").read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        middle, _ = convert_value(value, "rag24", "rag25")
        back, _ = convert_value(middle, "rag25", "rag24")
        assert back == {**value, "topic_id": str(value["topic_id"])}


def test_ragtime_without_a_cap_round_trips_exactly() -> None:
    value = json.loads((SAMPLES / "T1_run_1.head3.jsonl").read_text(encoding="utf-8").splitlines()[1])
    out, notes = convert_value(copy.deepcopy(value), "ragtime26", "ragtime26")
    assert out["responses"] == [{"text": s["text"], "citations": s["citations"]} for s in value["responses"]]
    assert not [n for n in notes if n.kind == "loss"]


def test_submission_dicts_reload_as_the_same_report() -> None:
    for source in REPORTS:
        for spec in SHARED_SPECS:
            wire = submission_dict(convert(source, spec), spec)
            assert submission_dict(convert(Report.model_validate(wire), spec), spec) == wire
