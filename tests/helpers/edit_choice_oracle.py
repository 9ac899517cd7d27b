"""The fix combiner's oracle: the plain quadratic rule that `choose_compatible` must
agree with (the property test) and that the fix benchmark measures it against."""

from __future__ import annotations

from citelens.source.edits import Edit


def pairwise_choice(groups: list[tuple[Edit, ...]]) -> list[int]:
    """The groups a pairwise comparison keeps, in order: a group joins when no edit of it
    touches an edit already chosen (every candidate against every chosen one)."""
    chosen: list[Edit] = []
    picked = []
    for i, group in enumerate(groups):
        if all(not (c.start <= e.end and e.start <= c.end) for c in group for e in chosen):
            chosen.extend(group)
            picked.append(i)
    return picked
