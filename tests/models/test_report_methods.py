"""Report methods side by side with the reference library, plus the stories they serve."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest

from citelens.models import (
    NeuclirReportSentence,
    RagtimeReportSentence,
    Report,
    ReportFormatWarning,
    TrackSpecVerificationError,
)
from tests.helpers.reference_oracle import SHARED_SPECS, reference, sample_lines
from tests.helpers.report_factory import generate_reports


def _loadable(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for value in values:
        try:
            Report.model_validate(value)
        except Exception:
            continue
        out.append(value)
    return out


VALUES = _loadable([json.loads(line) for _, _, line in sample_lines()] + generate_reports(seed=7, count=240))


def _pair(value: dict[str, Any]) -> tuple[Report, Any]:
    return Report.model_validate(copy.deepcopy(value)), reference().report.Report.model_validate(
        copy.deepcopy(value)
    )


def _dump(sentences: list[Any]) -> list[dict[str, Any]]:
    return [s.model_dump(mode="json") for s in sentences]


@pytest.mark.parametrize("index", range(len(VALUES)))
def test_text_and_citation_views_match(index: int) -> None:
    ours, theirs = _pair(VALUES[index])
    assert ours.get_report_text() == theirs.get_report_text()
    assert ours.get_text() == theirs.get_text()
    assert ours.get_paragraphs() == theirs.get_paragraphs()
    assert ours.get_sentences() == theirs.get_sentences()
    assert _dump(ours.get_sentences_with_citations()) == _dump(theirs.get_sentences_with_citations())
    assert _dump(ours.get_sentences_with_citation_confidences()) == _dump(
        theirs.get_sentences_with_citation_confidences()
    )


@pytest.mark.parametrize("index", range(len(VALUES)))
def test_in_place_switches_match(index: int) -> None:
    ours, theirs = _pair(VALUES[index])
    ours.switch_to_neuclir_responses()
    theirs.switch_to_neuclir_responses()
    assert ours.model_dump(mode="json") == theirs.model_dump(mode="json")
    ours.switch_responses_to_answer()
    theirs.switch_responses_to_answer()
    assert ours.model_dump(mode="json") == theirs.model_dump(mode="json")


@pytest.mark.parametrize("index", range(len(VALUES)))
def test_autofill_references_gives_the_same_set(index: int) -> None:
    """Same ids where the reference works: all-ragtime reports with citations on every sentence.

    Deviation: elsewhere the reference raises AttributeError (its comprehension calls
    `.keys()` on every sentence's citations before filtering by shape); ours fills in.
    """
    ours, theirs = _pair(VALUES[index])
    ours.autofill_references()
    works = all(isinstance(s.citations, dict) for s in theirs.responses)
    if not works:
        with pytest.raises(AttributeError):
            theirs.autofill_references()
        return
    theirs.autofill_references()
    assert set(ours.references or []) == set(theirs.references or [])
    assert len(ours.references or []) == len(theirs.references or [])


def test_autofill_references_keeps_first_citation_order_and_tolerates_null() -> None:
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "responses": [
                {"text": "a", "citations": ["d2", "d1"]},
                {"text": "b"},
                {"text": "c", "citations": ["d3", "d2"]},
            ],
        }
    )
    report.autofill_references()
    assert report.references == ["d2", "d1", "d3"]


@pytest.mark.parametrize("spec", SHARED_SPECS)
@pytest.mark.parametrize("index", range(0, len(VALUES), 3))
def test_verify_agrees_with_the_reference(spec: str, index: int) -> None:
    ours, theirs = _pair(VALUES[index])
    ref_errors, ref_warnings = theirs.check_findings(spec)
    our_errors, our_warnings = ours.check_findings(spec)
    assert bool(our_errors) == bool(ref_errors)
    if ref_errors:
        with pytest.raises(RuntimeError):
            ours.verify(spec)
        with pytest.raises(TrackSpecVerificationError):
            ours.verify(spec)
    else:
        assert ours.verify(spec) is True


def test_verify_rag_defaults_to_rag26() -> None:
    """The rag25 baseline has no run_desc, which rag26 requires: both libraries refuse it."""
    ours, theirs = _pair(json.loads(reference_sample("ragnarok_rag25_ag_baseline.example.jsonl")))
    with pytest.raises(RuntimeError, match="run_desc"):
        ours.verify_rag()
    with pytest.raises(RuntimeError, match="run_desc"):
        theirs.verify_rag()
    assert ours.verify_rag(spec="rag25") is theirs.verify_rag(spec="rag25") is True


def reference_sample(name: str) -> str:
    from tests.helpers.reference_oracle import SAMPLES

    return (SAMPLES / name).read_text(encoding="utf-8").splitlines()[0]


# --- get_sentences_with_citations: the three shapes --------------------------------------


def test_ragtime_citations_come_out_by_descending_confidence_ties_in_order() -> None:
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "responses": [{"text": "a", "citations": {"low": 0.1, "tie1": 0.5, "high": 0.9, "tie2": 0.5}}],
        }
    )
    assert report.get_sentences_with_citations()[0].citations == ["high", "tie1", "tie2", "low"]


def test_rag24_positions_resolve_through_references_and_out_of_range_ones_drop() -> None:
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "references": ["d0", "d1"],
            "answer": [{"text": "a", "citations": [1, 5, 0]}],
        }
    )
    assert report.get_sentences_with_citations()[0].citations == ["d1", "d0"]


def test_neuclir_sentences_pass_through_unchanged() -> None:
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "responses": [{"text": "a", "citations": ["b", "a", "b"]}],
        }
    )
    view = report.get_sentences_with_citations()[0]
    assert isinstance(view, NeuclirReportSentence) and view is report.responses[0]  # type: ignore[index]


def test_order_only_citations_get_rank_confidences_and_null_stays_null() -> None:
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "responses": [{"text": "a", "citations": ["b", "a", "b"]}, {"text": "c"}],
        }
    )
    first, second = report.get_sentences_with_citation_confidences()
    assert isinstance(first, RagtimeReportSentence)
    assert first.citations == {"b": 1.0, "a": 0.5}
    assert second.citations is None


# --- the legacy RAGTIME checks -------------------------------------------------------------


def _ragtime(
    task: str | None = "english", refs: list[str] | None = None, **citations: float
) -> dict[str, Any]:
    md: dict[str, Any] = {"team_id": "t", "run_id": "r", "topic_id": "1"}
    if task:
        md["task"] = task
    cites = citations or {"5f91a162-7a1e-4e5e-af0e-6b1bab774964_1": 50.0}
    return {
        "metadata": md,
        "references": list(cites) if refs is None else refs,
        "responses": [{"text": "a", "citations": cites}],
    }


def _legacy(model: Any, value: dict[str, Any]) -> tuple[str, Any]:
    report = model.model_validate(copy.deepcopy(value))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            report.verify_ragtime()
        except Exception as exc:
            return "raised", type(exc).__name__
    return "passed", report.model_dump(mode="json")


@pytest.mark.parametrize(
    "value",
    [
        _ragtime(),
        _ragtime(task=None),
        _ragtime(task="rag"),
        _ragtime(refs=[]),
        _ragtime(refs=["other"]),
        _ragtime(d1=150.0, d2=-3.0),
        _ragtime(d1=100.0, d2=0.0),
    ],
    ids=["valid", "no task", "task rag", "no references", "wrong references", "out of range", "bounds"],
)
def test_verify_ragtime_matches_the_reference(value: dict[str, Any]) -> None:
    assert _legacy(Report, value) == _legacy(reference().report.Report, value)


def test_verify_ragtime_clamps_confidences_with_a_warning() -> None:
    report = Report.model_validate(_ragtime(d1=150.0, d2=-3.0))
    with pytest.warns(ReportFormatWarning, match="between 0.0 and 100.0"):
        assert report.verify_ragtime() is True
    assert report.responses[0].citations == {"d1": 100.0, "d2": 0.0}  # type: ignore[index]


def test_verify_ragtime_warns_on_empty_citations_and_is_deprecated() -> None:
    value = _ragtime()
    value["responses"].append({"text": "b", "citations": {}})
    report = Report.model_validate(value)
    with pytest.warns(ReportFormatWarning, match="empty citations"), pytest.warns(DeprecationWarning):
        report.verify_ragtime()


def test_verify_ragtime_with_a_spec_is_verify() -> None:
    report = Report.model_validate(_ragtime())
    assert report.verify_ragtime(spec="ragtime26") is True


def test_verify_ragtime_on_a_neuclir_report_does_not_crash() -> None:
    """Deviation: the reference raises AttributeError (it calls .items() on a list)."""
    value = {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "task": "english"},
        "references": [],
        "responses": [{"text": "a", "citations": ["d"]}],
    }
    with pytest.raises(AttributeError), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference().report.Report.model_validate(value).verify_ragtime()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert Report.model_validate(value).verify_ragtime() is True


def test_ragtime_length_limit_comes_from_the_request() -> None:
    """Length is a smell for RAGTIME: a tight request limit adds a warning in both libraries."""
    from citelens.models import Request

    ours, theirs = _pair(json.loads(reference_sample("T1_run_1.head3.jsonl")))
    for spec in ("ragtime25", "ragtime26"):
        loose_ours = ours.check_findings(spec, request=Request(request_id="2000", title="t", limit=10**6))
        tight_ours = ours.check_findings(spec, request=Request(request_id="2000", title="t", limit=10))
        ref_request = reference().request.Request
        loose_ref = theirs.check_findings(
            spec, request=ref_request(request_id="2000", title="t", limit=10**6)
        )
        tight_ref = theirs.check_findings(spec, request=ref_request(request_id="2000", title="t", limit=10))
        assert (len(tight_ours[1]) - len(loose_ours[1])) == (len(tight_ref[1]) - len(loose_ref[1])) == 1
        assert tight_ours[0] == loose_ours[0] and ours.verify(
            spec, request=Request(request_id="2000", title="t", limit=10)
        )


def test_after_switching_to_answer_the_text_is_read_from_answer() -> None:
    """Deviation: the reference raises TypeError here (it only reads `responses`)."""
    report = Report.model_validate(
        {
            "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"},
            "responses": [{"text": "a", "citations": ["d"]}, {"text": "b"}],
        }
    )
    report.switch_responses_to_answer()
    assert report.responses is None and report.get_text() == "a b"
    assert [s.citations for s in report.get_sentences_with_citations()] == [["d"], None]
