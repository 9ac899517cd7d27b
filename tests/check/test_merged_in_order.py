"""`merged_in_order` and `sorted_in_slices`: findings in the order one stable sort gives,
whether they are inserted one by one, merged in one pass or sorted a slice at a time."""

from __future__ import annotations

import random

import pytest

from citelens.check.engine import MERGE_FROM, merged_in_order, sorted_in_slices
from citelens.check.finding import Finding
from citelens.check.finding import finding_order as _order


def _findings(n: int, seed: int, tag: str) -> list[Finding]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        start = rng.randrange(0, 40)  # few places: many equal keys
        code = rng.choice(["a", "b"])
        out.append(Finding(code, "error", f"{tag}{i}", start=start, end=start + rng.randrange(0, 3)))
    return sorted(out, key=_order)


@pytest.mark.parametrize("few_n", [0, 1, MERGE_FROM - 1, MERGE_FROM, MERGE_FROM + 1, 300])
@pytest.mark.parametrize("many_n", [0, 1, 500])
def test_the_merge_is_the_stable_sort_of_both_lists(few_n: int, many_n: int) -> None:
    few, many = _findings(few_n, 1, "file"), _findings(many_n, 2, "report")
    expected = sorted(few + many, key=_order)  # each of `few` before its equals in `many`
    got = merged_in_order(list(few), list(many))
    assert [f.message for f in got] == [f.message for f in expected]


def test_equal_findings_keep_the_file_level_one_first() -> None:
    same = [Finding("a", "error", f"file{i}", start=5, end=6) for i in range(MERGE_FROM)]
    report = [Finding("a", "error", "report", start=5, end=6)]
    assert [f.message for f in merged_in_order(same, report)][-1] == "report"
    assert [f.message for f in merged_in_order(same[:1], list(report))] == ["file0", "report"]


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 50])
def test_findings_sorted_in_slices_are_sorted_as_one_stable_sort(n: int) -> None:
    findings = _findings(n, 3, "f")
    random.Random(4).shuffle(findings)
    expected = sorted(findings, key=_order)
    assert [f.message for f in sorted_in_slices(findings, size=8)] == [f.message for f in expected]
    assert [f.message for f in sorted_in_slices(findings)] == [f.message for f in expected]
