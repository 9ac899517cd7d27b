"""Choosing the high-tier boundary (`high_tier_coverage`) on the tune split by a
conservative criterion: the Wilson lower bound of the high tier's "unsupported" precision,
not its point estimate, so that a boundary resting on a handful of pairs does not win.

    python bench/bench_support.py --split tune --tier-curve
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: one-sided 95%: the precision is at least the bound with 95% confidence
Z_ONE_SIDED_95 = 1.645


def wilson_lower_bound(hits: int, n: int, z: float = Z_ONE_SIDED_95) -> float:
    """The lower end of the Wilson score interval of hits / n (0 for n = 0)."""
    if n == 0:
        return 0.0
    p = hits / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


@dataclass(frozen=True)
class TierPoint:
    """The high tier at one boundary: how many "unsupported" it holds, how many rightly."""

    boundary: float
    hits: int
    flagged: int

    @property
    def precision(self) -> float:
        return self.hits / self.flagged if self.flagged else 0.0

    @property
    def lower_bound(self) -> float:
        return wilson_lower_bound(self.hits, self.flagged)


def tier_curve(
    labels: Sequence[str],
    flagged_at: Callable[[float], Sequence[bool]],
    boundaries: Sequence[float],
) -> list[TierPoint]:
    """The high tier at each boundary: ``flagged_at(b)[i]`` says whether pair i's verdict
    is a high-tier "unsupported" when `high_tier_coverage` is b."""
    out = []
    for b in boundaries:
        flagged = [lab for lab, high in zip(labels, flagged_at(b), strict=True) if high]
        out.append(TierPoint(b, sum(1 for lab in flagged if lab == "unsupported"), len(flagged)))
    return out


def by_score(unsupported: Sequence[tuple[float, bool] | None]) -> Callable[[float], list[bool]]:
    """`flagged_at` from each verdict's (score, other_amount), None for a verdict that is
    not "unsupported": in the high tier when it gives another amount or its score is below
    the boundary (judge._tier without its synonym step)."""
    return lambda b: [u is not None and (u[1] or u[0] < b) for u in unsupported]


def choose_boundary(curve: Sequence[TierPoint]) -> TierPoint:
    """The boundary with the highest lower bound; of equal bounds, the lowest boundary
    (the narrower tier)."""
    return max(curve, key=lambda t: (round(t.lower_bound, 9), -t.boundary))
