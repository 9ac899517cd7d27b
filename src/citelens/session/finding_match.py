"""Which finding a diagnostic the client sends back stands for: its code and its place.

Clients do not always send a diagnostic back with the columns they were given: Neovim 0.7
counts a line with a non-ASCII character before the token in other units, and a CRLF line
end comes back clamped. The exact range wins; failing that, the finding with the same code
on an overlapping line whose start is nearest, so the quick fix is still offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citelens.check.finding import Finding
    from citelens.source.line_index import LineIndex


def finding_for(code: Any, start: int, end: int, findings: list[Finding], lines: LineIndex) -> Finding | None:
    """The finding with `code` at offsets `start`..`end` (exact), else on the lines they span."""
    same = [f for f in findings if f.code == code]
    for f in same:
        if f.start == start and f.end == end:
            return f
    first, last = lines.line_of(start), lines.line_of(max(start, end - 1))
    best = None
    for f in same:
        f_first, f_last = lines.line_of(f.start), lines.line_of(max(f.start, f.end - 1))
        if (
            f_first <= last
            and first <= f_last
            and (best is None or abs(f.start - start) < abs(best.start - start))
        ):
            best = f
    return best
