"""Our engine against cite-right 0.4.0's pure-Python path on the seeded case set."""

from __future__ import annotations

import pytest

from compat_cases import build_cases, compare

pytest.importorskip("cite_right")


@pytest.fixture(scope="module")
def comparison():
    cases = build_cases()
    assert len(cases) >= 300
    return compare(cases)


def test_status_agrees_on_at_least_95_percent_of_spans(comparison, capsys):
    with capsys.disabled():
        print(f"\n[compat] spans={comparison.spans} status agreement={comparison.status_rate:.4f} "
              f"both cite={comparison.both_cite} IoU>=0.9={comparison.iou_rate:.4f}")
    assert comparison.spans >= 300
    assert comparison.status_rate >= 0.95, comparison.disagreements[:10]


def test_top_evidence_overlaps_reference(comparison):
    assert comparison.both_cite >= 100
    assert comparison.iou_rate >= 0.95, comparison.disagreements[:10]
