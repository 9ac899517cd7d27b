"""Apply the offered fixes to a file until nothing fixable is left.

Fixes of one pass must not overlap; the rest wait for the next pass, which re-checks the
edited text (so every applied edit was computed on the text it changes). The pass count
is bounded, and a pass that changes nothing ends the loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citelens.check.engine import Checker
from citelens.check.result import FileResult
from citelens.source.edit_choice import choose_compatible
from citelens.source.edits import Edit, apply_edits

MAX_PASSES = 25


@dataclass
class FixOutcome:
    text: str
    result: FileResult  # the findings left after fixing
    applied: list[tuple[str, str]] = field(default_factory=list)  # (code, fix title)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def fix_text(
    text: str, checker: Checker, *, unsafe: bool = False, path: str = "<text>", only: str | None = None
) -> FixOutcome:
    """Apply the fixes (only those of code `only`, when given) pass after pass."""
    if not checker.fixes:
        raise ValueError("the checker must be made with fixes=True")
    applied: list[tuple[str, str]] = []
    result = checker.check_text(text, path)
    for _ in range(MAX_PASSES):
        offered: list[tuple[str, str, tuple[Edit, ...]]] = []
        seen: set[tuple[Edit, ...]] = set()
        for f in result.findings:
            repair = f.fix
            if repair is None or (repair.applicability == "unsafe" and not unsafe):
                continue
            if only is not None and f.code != only:
                continue
            if repair.edits in seen:
                continue  # one fix shared by several findings (e.g. rebuilt references)
            seen.add(repair.edits)
            offered.append((f.code, repair.title, repair.edits))
        chosen: list[Edit] = []
        for i in choose_compatible(edits for _, _, edits in offered):
            code, title, edits = offered[i]
            chosen.extend(edits)
            applied.append((code, title))
        if not chosen:
            break
        new_text = apply_edits(text, chosen)
        if new_text == text:
            break
        text = new_text
        result = checker.check_text(text, path)
    return FixOutcome(text, result, applied)
