"""An open document's result put together from its reports' outcomes and the file-level
findings, reusing the merged lists of the reports that did not change (see
`check.result.PlacedOnRead`)."""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Sequence

from citelens.check.file_level import FileLevel
from citelens.check.finding import Finding, finding_order, placed


class Merged:
    """Each report's own findings merged with its file-level ones, kept while both lists
    are the same objects (so is the merged one: the server keys its JSON on it)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Sequence[Finding], list[Finding], list[Finding]]] = {}

    def lists(
        self, starts: list[int], own: list[Sequence[Finding]], level: FileLevel
    ) -> tuple[list[Finding], list[Sequence[Finding]]]:
        """(the findings before the first report, placed; each report's findings relative
        to it, in file order)."""
        relative = list(own)
        kept, now = self._kept, {}
        for k, extra in level.reports.items():
            hit = kept.get(k)
            if hit is not None and hit[0] is own[k] and hit[1] is extra:
                merged = hit[2]
            else:
                merged = _merge(extra, own[k])
            now[k] = (own[k], extra, merged)
            relative[k] = merged
        self._kept = now
        head: list[Finding] = []
        for f in level.whole:  # text problems and the like: a few, placed in the file
            k = bisect_right(starts, f.start) - 1
            if k < 0:
                head.append(f)
            else:
                relative[k] = _merge([placed(f, -starts[k])], relative[k])
        return head, relative


def _merge(first: Sequence[Finding], then: Sequence[Finding]) -> list[Finding]:
    """Two lists in file order as one, each of `first` before its equals in `then`."""
    if not first:
        return list(then)
    if not then:
        return list(first)
    return list(heapq.merge(first, then, key=finding_order))
