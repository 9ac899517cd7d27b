"""Choosing, among many fixes, the ones that can be applied together, in O(E log E).

A fix is a group of edits. Fixes are taken greedily in the order given (the first one
wins a conflict, as a reader would expect from the order of the findings); a fix joins
when none of its edits overlaps or touches an edit already chosen (an insertion at the
edge of a deletion could land on either side of it). Comparing each fix with every chosen
edit is quadratic, which made fix-all on a 25 MB run take over a minute; here every
candidate edit is placed once in start order and a Fenwick tree of the largest chosen end
answers "does any chosen edit starting at or before my end reach my start?" in log time.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from citelens.source.edits import Edit


def choose_compatible(groups: Iterable[Sequence[Edit]]) -> list[int]:
    """The indices of the groups chosen, in order: each group whose edits neither overlap
    nor touch the edits of a group chosen before it."""
    groups = [tuple(g) for g in groups]
    starts = sorted(e.start for g in groups for e in g)
    tree = _MaxTree(len(starts))
    chosen: list[int] = []
    for index, group in enumerate(groups):
        # conflict: a chosen edit c with c.start <= e.end and c.end >= e.start
        if any(tree.max_upto(bisect_right(starts, e.end)) >= e.start for e in group):
            continue
        for e in group:
            # any slot holding this start will do: the query only looks at slots by start
            tree.raise_at(bisect_right(starts, e.start) - 1, e.end)
        chosen.append(index)
    return chosen


class _MaxTree:
    """A Fenwick tree over slots: raise a slot's value, ask the maximum of a prefix."""

    __slots__ = ("_size", "_tree")

    def __init__(self, size: int) -> None:
        self._size = size
        self._tree = [-1] * (size + 1)

    def raise_at(self, slot: int, value: int) -> None:
        i = slot + 1
        tree, size = self._tree, self._size
        while i <= size:
            if tree[i] < value:
                tree[i] = value
            i += i & -i

    def max_upto(self, count: int) -> int:
        """The largest value among the first `count` slots (-1 when none is set)."""
        best, i, tree = -1, count, self._tree
        while i > 0:
            if tree[i] > best:
                best = tree[i]
            i -= i & -i
        return best
