"""Exact scores and bounds of local alignments from the matching cells alone.

When only a few answer tokens occur in a passage, the best local alignment is decided
by those few matching cells, so it can be scored without the full dynamic programme.
These are used to settle most candidate passages before any alignment runs.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence


def best_chain(
    query_positions: dict[int, list[int]],
    target: Sequence[int],
    match: int = 2,
    mismatch: int = -1,
    gap: int = -1,
    *,
    max_pairs: int = 12,
) -> tuple[int, int] | None:
    """(score, matches) of the best local alignment, from the matching cells only.

    With mismatch <= 0 and gap <= 0 every path starts at a match and loses score
    between matches, so the best path is a chain of matching cells (query i, target j)
    joined by the cheapest run of mismatches and gaps that keeps the score positive.
    The reference's cell and end-point orders both start with (score, matches), so the
    lexicographic best chain gives exactly its (score, matches). Returns None when
    there are more than ``max_pairs`` matching cells (use the full programme then).
    """
    pairs: list[tuple[int, int]] = []
    for j, t in enumerate(target):
        rows = query_positions.get(t)
        if rows:
            for i in rows:
                pairs.append((i, j))
            if len(pairs) > max_pairs:
                return None
    if not pairs:
        return (0, 0)
    pairs.sort()
    diagonal_pays = mismatch - 2 * gap >= 0
    done: list[tuple[int, int, int, int]] = []
    best = (0, 0)
    for i, j in pairs:
        score, matches = match, 1
        for i0, j0, s0, m0 in done:
            if i0 < i and j0 < j:
                a, b = i - i0 - 1, j - j0 - 1
                k = min(a, b) if diagonal_pays else 0
                carried = s0 + k * mismatch + (a + b - 2 * k) * gap
                if carried > 0 and (carried + match, m0 + 1) > (score, matches):
                    score, matches = carried + match, m0 + 1
        done.append((i, j, score, matches))
        if (score, matches) > best:
            best = (score, matches)
    return best


def longest_chain(query_positions: dict[int, list[int]], target: Sequence[int]) -> int:
    """Most matches any alignment can have: the longest chain of matching cells that
    increases in both query and target position (a longest increasing subsequence).
    With mismatch <= 0 and gap <= 0 the score is at most ``match`` times this."""
    tails: list[int] = []
    rows: list[tuple[int, int]] = []
    for j, t in enumerate(target):
        found = query_positions.get(t)
        if found:
            for i in found:
                rows.append((i, -j))
    rows.sort()
    for _, neg_j in rows:
        j = -neg_j
        at = bisect_left(tails, j)
        if at == len(tails):
            tails.append(j)
        else:
            tails[at] = j
    return len(tails)
