"""Amounts: numbers written with a unit ("€3.5 billion", "17%", "800 m"), and whether a
document gives another amount where the sentence's is missing.

The guideline calls a sentence unsupported when the document contradicts its main claim
with another amount ("J.P. Morgan provided €3.5 billion" against "J.P. Morgan has agreed
to underwrite an initial $4.2 billion"). A bare number (a year, a count, a day) has no
unit to compare by and is left out: "19 April" against "20 April" may be another event.
"""

from __future__ import annotations

from collections.abc import Sequence

from citelens.support.terms import NUMBER, Term

#: units compared as one kind (an amount of money in another currency is still another amount)
_UNIT_KIND = {"dollar": "money", "euro": "money", "pound": "money"}

#: amounts closer than this share of the larger one are the same amount written loosely
#: ("about $4 billion" for "$4.2 billion")
TOLERANCE = 0.1


def amounts(terms: Sequence[Term]) -> list[tuple[float, str]]:
    """(value, unit kind) of every number directly before or after a unit term."""
    out = []
    for i, term in enumerate(terms):
        if term.kind != NUMBER:
            continue
        value = _value(term.key)
        if value is None:
            continue
        unit = None
        after = terms[i + 1] if i + 1 < len(terms) else None
        before = terms[i - 1] if i > 0 else None
        if after is not None and after.key.startswith("unit:") and after.start - term.end <= 1:
            unit = after.key[5:]
        elif before is not None and before.key.startswith("unit:") and term.start - before.end <= 1:
            unit = before.key[5:]
        if unit is not None:
            out.append((value, _UNIT_KIND.get(unit, unit)))
    return out


def _value(key: str) -> float | None:
    try:
        return float(key[1:])
    except ValueError:
        return None


def other_amount(
    sentence_terms: Sequence[Term], missing: Sequence[str], document_terms: Sequence[Term]
) -> bool:
    """True if an amount of the sentence that the document lacks (``missing``: number keys
    without "#") meets, in ``document_terms``, an amount of the same unit kind that
    differs by more than the tolerance. An amount the sentence states itself ("$900
    million" beside the missing "$7.8 million") is not another amount."""
    lacking = {_value("#" + m) for m in missing}
    stated = amounts(sentence_terms)
    wanted = [(v, kind) for v, kind in stated if v in lacking]
    if not wanted:
        return False
    others = [
        (value, kind)
        for value, kind in amounts(document_terms)
        if not any(kind == k and _close(value, v) for v, k in stated)
    ]
    return any(kind == k and not _close(v, value) for v, kind in wanted for value, k in others)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b))
