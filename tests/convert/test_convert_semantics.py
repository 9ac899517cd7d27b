"""What `convert` does, one rule at a time, on small hand-written reports."""

from __future__ import annotations

from typing import Any

import pytest

from citelens.convert import convert, rank_citations, rank_confidences, submission_dict, to_rag, to_ragtime
from citelens.models import NeuclirReportSentence, Rag24ReportSentence, RagtimeReportSentence, Report
from citelens.specs import builtin_specs
from citelens.specs.loader import parse_spec_text

MD = {"team_id": "t", "run_id": "r", "topic_id": "7"}
CAPPED = parse_spec_text(
    '[specs.capped]\nextends = "ragtime26"\nsmells = []\n', "c.toml", base=builtin_specs()
)["capped"]


def report(sentences: list[dict[str, Any]], references: list[str] | None = None, **metadata: Any) -> Report:
    value: dict[str, Any] = {"metadata": {**MD, **metadata}, "responses": sentences}
    if references is not None:
        value["references"] = references
    return Report.model_validate(value)


def test_rank_helpers() -> None:
    assert rank_confidences(["b", "a", "b", "c"]) == {"b": 1.0, "a": 0.5, "c": 1 / 3}
    assert rank_citations({"x": 0.2, "y": 0.9, "z": 0.2}) == [("y", 0.9), ("x", 0.2), ("z", 0.2)]
    assert rank_citations(None) is None


def test_each_spec_emits_its_canonical_sentence_shape() -> None:
    source = report([{"text": "a", "citations": {"d1": 0.2, "d2": 0.9}}])
    assert isinstance(convert(source, "ragtime26").responses[0], RagtimeReportSentence)  # type: ignore[index]
    assert isinstance(convert(source, "kiddie").responses[0], NeuclirReportSentence)  # type: ignore[index]
    assert isinstance(convert(source, "rag26").responses[0], Rag24ReportSentence)  # type: ignore[index]


def test_ragtime_scores_survive_and_order_becomes_position() -> None:
    source = report([{"text": "a", "citations": {"d1": 0.2, "d2": 0.9, "d3": 0.2}}])
    assert convert(source, "ragtime25").responses[0].citations == {"d2": 0.9, "d1": 0.2, "d3": 0.2}  # type: ignore
    assert convert(source, "kiddie").responses[0].citations == ["d2", "d1", "d3"]  # type: ignore[index]
    rag = convert(source, "rag26")
    assert rag.references == ["d2", "d1", "d3"] and rag.responses[0].citations == [0, 1, 2]  # type: ignore


def test_order_only_citations_get_one_over_rank_first_occurrence_wins() -> None:
    source = report([{"text": "a", "citations": ["d2", "d1", "d2"]}])
    assert convert(source, "ragtime26").responses[0].citations == {"d2": 1.0, "d1": 0.5}  # type: ignore[index]


def test_null_citations_stay_null_and_empty_stays_empty() -> None:
    source = report([{"text": "a"}, {"text": "b", "citations": []}])
    for spec in ("ragtime26", "kiddie", "rag26"):
        wire = submission_dict(convert(source, spec), spec)
        sentences = wire[builtin_specs()[spec].sentences_key]
        assert sentences[0]["citations"] is None
        assert sentences[1]["citations"] in ([], {})


def test_truncation_keeps_the_top_ranked_unless_the_count_is_a_smell() -> None:
    source = report([{"text": "a", "citations": {"d1": 1, "d2": 4, "d3": 3, "d4": 2}}])
    assert list(convert(source, CAPPED).responses[0].citations) == ["d2", "d3", "d4"]  # type: ignore
    assert len(convert(source, "ragtime26").responses[0].citations) == 4  # type: ignore[index,arg-type]


def test_references_follow_the_spec_kind() -> None:
    source = report([{"text": "a", "citations": ["d3", "d1"]}], references=["d1", "d2", "d1"])
    assert convert(source, "ragtime25").references == ["d3", "d1"]  # cited_only: rebuilt from citations
    assert convert(source, "rag26").references == ["d1", "d2", "d3"]  # de-duplicated, missing cited appended
    assert convert(source, "rag26").responses[0].citations == [2, 0]  # type: ignore[index]
    none_kind = parse_spec_text(
        '[specs.n]\nextends = "kiddie"\nreferences_kind = "none"\n', "n.toml", base=builtin_specs()
    )["n"]
    converted = convert(source, none_kind)
    assert converted.references is None and "references" not in submission_dict(converted, none_kind)


def test_metadata_is_remapped_to_the_target() -> None:
    source = report(
        [{"text": "a", "citations": []}],
        narrative="why?",
        type="automatic",
        prompt="p",
        task="english",
        run_desc="desc",
    )
    rag25 = submission_dict(convert(source, "rag25"), "rag25")
    assert rag25["metadata"] == {
        "team_id": "t",
        "run_id": "r",
        "type": "automatic",
        "narrative_id": "7",
        "narrative": "why?",
    }
    ragtime25 = submission_dict(convert(source, "ragtime25"), "ragtime25")
    assert ragtime25["metadata"] == {"team_id": "t", "topic_id": "7", "run_id": "r", "task": "english"}
    dragun = submission_dict(convert(source, "dragun25"), "dragun25")
    assert dragun["metadata"]["use_starter_kit"] is None  # required but absent: left for the checker


def test_sentence_key_follows_the_spec() -> None:
    source = report([{"text": "a", "citations": ["d"]}])
    assert "answer" in submission_dict(convert(source, "rag26"), "rag26")
    assert "responses" in submission_dict(convert(source, "dragun25"), "dragun25")


def test_converting_does_not_touch_the_source() -> None:
    source = report([{"text": "a", "citations": {"d1": 150.0}}], references=["d1"])
    before = source.model_dump(mode="json")
    convert(source, "rag26")
    assert source.model_dump(mode="json") == before


def test_deprecated_defaults() -> None:
    source = report([{"text": "a", "citations": ["d"]}])
    with pytest.warns(DeprecationWarning):
        assert "narrative_id" in submission_dict(to_rag(source), "rag25")["metadata"]
    with pytest.warns(DeprecationWarning):
        assert to_ragtime(source).responses[0].citations == {"d": 1.0}  # type: ignore[index]
    with pytest.warns(DeprecationWarning):
        assert source.to_rag("rag26").metadata.narrative_id == "7"
