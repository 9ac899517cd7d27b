"""Report values go through our models and the reference library's: same data, same errors.

The inputs are the shared sample runs plus a few hundred seeded random reports in all
three citation shapes; the invalid values below are the ways real lines go wrong.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from citelens.models import Report
from tests.helpers.reference_oracle import reference, sample_lines
from tests.helpers.report_factory import generate_reports

VALUES = [json.loads(line) for _, _, line in sample_lines()] + generate_reports(seed=20261130, count=300)

_MD = {"team_id": "t", "run_id": "r", "topic_id": "1"}
INVALID: dict[str, dict[str, Any]] = {
    "no sentence list": {"metadata": _MD},
    "no topic id": {"metadata": {"team_id": "t", "run_id": "r"}, "responses": []},
    "only request_id": {"metadata": {"team_id": "t", "run_id": "r", "request_id": "5"}, "responses": []},
    "inconsistent ids": {"metadata": {**_MD, "narrative_id": "2"}, "responses": []},
    "int topic_id": {"metadata": {**_MD, "topic_id": 1}, "responses": []},
    "int team_id": {"metadata": {**_MD, "team_id": 3}, "responses": []},
    "no metadata": {"responses": []},
    "mixed shapes": {
        "metadata": _MD,
        "responses": [{"text": "a", "citations": ["x"]}, {"text": "b", "citations": {"x": 1}}],
    },
    "citations a string": {"metadata": _MD, "responses": [{"text": "a", "citations": "x"}]},
    "score not a number": {"metadata": _MD, "responses": [{"text": "a", "citations": {"x": "high"}}]},
    "sentence without text": {"metadata": _MD, "answer": [{"citations": [0]}], "references": ["x"]},
    "flat rag24 line": {
        "run_id": "r",
        "topic_id": 1,
        "topic": "q",
        "references": [],
        "response_length": 0,
        "answer": [],
    },
}


def _outcome(model: Any, value: dict[str, Any]) -> tuple[str, Any]:
    try:
        report = model.model_validate(value)
    except Exception as exc:  # the class is what we compare
        return "raised", type(exc).__name__
    return "loaded", report.model_dump(mode="json")


@pytest.mark.parametrize("index", range(len(VALUES)))
def test_same_report_after_loading(index: int) -> None:
    value = VALUES[index]
    assert _outcome(Report, value) == _outcome(reference().report.Report, value)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_same_exception_class_for_invalid_values(name: str) -> None:
    ours = _outcome(Report, INVALID[name])
    assert ours[0] == "raised"
    assert ours == _outcome(reference().report.Report, INVALID[name])


def test_int_narrative_id_is_accepted_and_becomes_the_string_topic_id() -> None:
    report = Report.model_validate(
        {"metadata": {"team_id": "t", "run_id": "r", "narrative_id": 7}, "answer": []}
    )
    assert (report.metadata.topic_id, report.metadata.narrative_id, report.metadata.request_id) == (
        "7",
        "7",
        "7",
    )


def test_responses_and_answer_name_the_same_sentences() -> None:
    report = Report.model_validate(
        {"metadata": _MD, "answer": [{"text": "x", "citations": [0]}], "references": ["d"]}
    )
    assert report.responses is report.answer
    with pytest.raises(RuntimeError, match="responses or answer"):
        Report.model_validate({"metadata": _MD})


def test_sentence_shape_follows_the_citations() -> None:
    def shape(citations: Any) -> str:
        report = Report.model_validate(
            {"metadata": _MD, "responses": [{"text": "x", "citations": citations}]}
        )
        return type(report.responses[0]).__name__  # type: ignore[index]

    assert shape(["d1"]) == "NeuclirReportSentence"
    assert shape({"d1": 0.5}) == "RagtimeReportSentence"
    assert shape([0, 2]) == "Rag24ReportSentence"
    assert shape([]) == "NeuclirReportSentence"  # ambiguous: the first shape wins, as in the reference
    assert shape(["1"]) == "NeuclirReportSentence"  # digit strings stay doc ids
