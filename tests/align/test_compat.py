"""Our engine against cite-right 0.4.0's pure-Python path on the seeded case set."""

from __future__ import annotations

import pytest

from tests.helpers.compat_cases import build_cases, compare

pytestmark = pytest.mark.slow  # the whole cite-right comparison corpus

pytest.importorskip("cite_right")


@pytest.fixture(scope="module")
def comparison():
    cases = build_cases()
    assert len(cases) >= 300
    return compare(cases)


def test_status_agrees_on_at_least_95_percent_of_spans(comparison, capsys):
    with capsys.disabled():
        print(
            f"\n[compat] spans={comparison.spans} status agreement={comparison.status_rate:.4f} "
            f"both cite={comparison.both_cite} IoU>=0.9={comparison.iou_rate:.4f}"
        )
    assert comparison.spans >= 300
    assert comparison.status_rate >= 0.95, comparison.disagreements[:10]


def test_top_evidence_overlaps_reference(comparison):
    assert comparison.both_cite >= 100
    assert comparison.iou_rate >= 0.95, comparison.disagreements[:10]


def test_many_passages_give_identical_results():
    """All 15 sample documents at once (1,347 passages): the 200-candidate cut is active."""
    import cite_right

    from citelens.align import PreparedCitationCorpus, SourceDocument
    from tests.helpers.compat_cases import _jsonl

    topics = {d["docid"]: d["body"] for d in _jsonl("dragun_docs.jsonl")}
    reports = [r for r in _jsonl("dragun_run.jsonl") if r["metadata"]["topic_id"] in topics][:3]
    ours = PreparedCitationCorpus.from_sources([SourceDocument(id=k, text=v) for k, v in topics.items()])
    ref = cite_right.PreparedCitationCorpus.from_sources(
        [cite_right.SourceDocument(id=k, text=v) for k, v in topics.items()], use_rust=False
    )
    assert ours.corpus.num_passages > 1000

    def rounded(x):
        if isinstance(x, float):
            return round(x, 9)
        if isinstance(x, dict):
            return {k: rounded(v) for k, v in x.items()}
        if isinstance(x, list):
            return [rounded(v) for v in x]
        return x

    for report in reports:
        answer = " ".join(x["text"] for x in report["responses"])
        a = [s.model_dump() for s in ours.align(answer)]
        b = [s.model_dump() for s in ref.align(answer, backend="python")]
        assert rounded(a) == rounded(b)
