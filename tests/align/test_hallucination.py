"""Answer-level grounding metrics, with the worked example of alignment.md §4."""

from __future__ import annotations

import pytest

from citelens.align import (
    SourceDocument,
    align_citations,
    compute_hallucination_metrics,
    is_grounded,
    is_hallucinated,
)

AMAZON = (
    "The Amazon rainforest covers much of the Amazon basin of South America. "
    "It is home to an enormous variety of plants and animals. "
    "Deforestation increased sharply between 2019 and 2021, driven mainly by cattle ranching and soy farming. "
    "Large areas of forest were cleared for pasture along the southern edge."
)
OTHER = "Coffee is one of the most traded agricultural commodities in the world. It is grown in over 70 countries."
ANSWER = (
    "Deforestation increased sharply between 2019 and 2021, driven mainly by cattle ranching and soy farming. "
    "Cattle ranching and soy farming drove a sharp rise in forest clearing from 2019 to 2021. "
    "The Eiffel Tower was completed in 1889 for the World's Fair in Paris."
)


@pytest.fixture(scope="module")
def results():
    return align_citations(
        ANSWER, [SourceDocument(id="amazon", text=AMAZON), SourceDocument(id="other", text=OTHER)]
    )


def test_the_three_example_spans(results):
    assert [len(sc.answer_span.text) for sc in results] == [104, 88, 69]
    assert [sc.status for sc in results] == ["supported", "partial", "unsupported"]
    assert results[0].citations[0].score == pytest.approx(2.5)
    assert results[1].citations[0].evidence == "cattle ranching and soy farming"
    assert results[1].citations[0].components["answer_coverage"] == pytest.approx(0.3125)


def test_worked_example(results):
    m = compute_hallucination_metrics(results)
    assert m.groundedness_score == pytest.approx((1.0 * 104 + 0.3125 * 88) / 261)
    assert round(m.groundedness_score, 4) == 0.5038
    assert m.hallucination_rate == pytest.approx(1 - m.groundedness_score)
    assert (round(m.supported_ratio, 3), round(m.partial_ratio, 3), round(m.unsupported_ratio, 3)) == (
        0.398,
        0.337,
        0.264,
    )
    assert m.avg_confidence == pytest.approx(0.4375)
    assert m.min_confidence == 0.0
    assert (m.num_spans, m.num_supported, m.num_partial, m.num_unsupported, m.num_weak_citations) == (
        3,
        1,
        1,
        1,
        1,
    )
    assert [s.text for s in m.unsupported_spans] == [results[2].answer_span.text]
    assert [s.text for s in m.weakly_supported_spans] == [results[1].answer_span.text]
    assert (
        m.span_confidences[0].source_ids == ["amazon"] and m.span_confidences[2].best_citation_score is None
    )


def test_partial_spans_can_be_left_out(results):
    from citelens.align import HallucinationConfig

    m = compute_hallucination_metrics(results, config=HallucinationConfig(include_partial_in_grounded=False))
    assert m.groundedness_score == pytest.approx(104 / 261)


def test_empty_answer_is_fully_grounded():
    m = compute_hallucination_metrics([])
    assert (m.groundedness_score, m.hallucination_rate, m.supported_ratio, m.avg_confidence, m.num_spans) == (
        1.0,
        0.0,
        1.0,
        1.0,
        0,
    )


def test_convenience_wrappers():
    sources = [SourceDocument(id="amazon", text=AMAZON)]
    assert is_grounded(ANSWER.split(". ")[0] + ".", sources)
    assert is_hallucinated("The Eiffel Tower was completed in 1889.", sources)
