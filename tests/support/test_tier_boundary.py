"""How the high-tier boundary is chosen (bench/support_tiers.py): by the Wilson lower bound
of its precision on labelled pairs, so a tier that is right on a few pairs does not beat one
that is right on many."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def tiers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("support_tiers", BENCH / "support_tiers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_the_lower_bound_grows_with_the_pairs_behind_the_same_precision(tiers: ModuleType) -> None:
    assert tiers.wilson_lower_bound(3, 3) < tiers.wilson_lower_bound(30, 30) < 1.0
    assert tiers.wilson_lower_bound(9, 10) < tiers.wilson_lower_bound(90, 100) < 0.9
    assert tiers.wilson_lower_bound(0, 0) == 0.0


def test_a_tier_right_on_three_pairs_loses_to_one_right_on_forty_of_forty_two(tiers: ModuleType) -> None:
    # three "unsupported" verdicts with nothing found, all right; then 39 more with a little
    # found, 37 right; then 10 with more found, half right
    labels = ["unsupported"] * 3 + ["unsupported"] * 37 + ["partial"] * 2 + ["unsupported", "partial"] * 5
    scores = [0.0] * 3 + [0.1] * 39 + [0.2] * 10
    verdicts = [(s, False) for s in scores]
    curve = tiers.tier_curve(labels, tiers.by_score(verdicts), [0.05, 0.15, 0.25])
    assert [(t.hits, t.flagged) for t in curve] == [(3, 3), (40, 42), (45, 52)]
    best = tiers.choose_boundary(curve)
    assert best.boundary == 0.15  # the point estimate would pick 0.05 (precision 1.0)
    assert curve[0].precision > best.precision and best.lower_bound > curve[0].lower_bound


def test_other_verdicts_are_not_in_the_tier_and_another_amount_always_is(tiers: ModuleType) -> None:
    labels = ["unsupported", "partial", "supported"]
    verdicts = [(0.9, True), None, None]  # another amount; a partial; a supported
    (point,) = tiers.tier_curve(labels, tiers.by_score(verdicts), [0.1])
    assert (point.hits, point.flagged) == (1, 1)
