"""Cheap signs that a cited passage says something else than the answer span.

Five independent tests (any one firing is a contradiction). They only downgrade a
span's status from "supported" to "partial"; they never remove a citation. They are
deliberately crude - an entity test on capitalised words fires on many harmless
pairs - because the reference behaves this way and statuses must agree with it.
"""

from __future__ import annotations

import re
import unicodedata

_NEGATION = re.compile(r"\b(?:not|never|no|neither|nor|nobody|nothing|nowhere|cannot)\b|n't\b")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*")

_SLOT_FILLERS = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "by",
        "from",
        "and",
        "or",
        "percent",
        "percentage",
        "pct",
    }
)
_NOT_ENTITIES_AT_START = _SLOT_FILLERS | {
    "this",
    "that",
    "these",
    "those",
    "we",
    "they",
    "he",
    "she",
    "it",
    "i",
    "if",
    "when",
    "while",
    "after",
    "before",
    "as",
    "so",
    "then",
    "there",
    "here",
    "however",
    "therefore",
    "but",
}

# (marker, opposite marker): contradiction when one is in the answer and the other in the evidence.
_OPPOSITES = [
    (re.compile(a), re.compile(b))
    for a, b in (
        (r"\bbc\b", r"\bago\b"),
        (r"\bce\b", r"\bbc\b"),
        (r"\bad\b", r"\bbc\b"),
        (r"\bbce\b", r"\bce\b"),
        (r"\boppose[ds]?\b", r"\b(?:support|urge[ds]?|advocate[ds]?|promote[ds]?)\b"),
        (r"\bsupport[s]?\b", r"\b(?:oppose[ds]?|reject[s]?|resist[s]?)\b"),
        (r"\breject[s]?\b", r"\b(?:accept[s]?|approve[s]?|endorse[ds]?)\b"),
        (r"\bdenied\b", r"\b(?:confirmed|admitted|acknowledged)\b"),
        (r"\bfailed\b", r"\b(?:succeeded|achieved|accomplished)\b"),
    )
]


def is_negated(text: str) -> bool:
    return _NEGATION.search(text.lower()) is not None


def numbers_in(text: str) -> list[str]:
    """Digit runs with inner ``.``/``,`` (commas dropped), after NFKC."""
    return [n.replace(",", "") for n in _NUMBER.findall(unicodedata.normalize("NFKC", text))]


def entities_in(text: str) -> list[str]:
    """Capitalised words (lowercased), skipping a sentence-initial function word."""
    out: list[str] = []
    for position, word in enumerate(unicodedata.normalize("NFKC", text).split()):
        word = word.rstrip(".,;:!?")
        if len(word) < 2 or not word[0].isupper():
            continue
        if position == 0 and word.lower() in _NOT_ENTITIES_AT_START:
            continue
        out.append(word.lower())
    return out


def negation_differs(answer: str, evidence: str) -> bool:
    return is_negated(answer) != is_negated(evidence)


def numbers_differ(answer: str, evidence: str) -> bool:
    """Both sides state numbers and none of the answer's appears in the evidence."""
    mine, theirs = set(numbers_in(answer)), set(numbers_in(evidence))
    return bool(mine and theirs and not (mine & theirs))


def entities_swapped(answer: str, evidence: str) -> bool:
    mine, theirs = set(entities_in(answer)), set(entities_in(evidence))
    return bool(mine and theirs and (mine - theirs) and (theirs - mine))


_ANY_MARKER = re.compile("|".join(f"(?:{m.pattern})|(?:{o.pattern})" for m, o in _OPPOSITES))


def opposite_markers(answer: str, evidence: str) -> bool:
    a, e = answer.lower(), evidence.lower()
    if not (_ANY_MARKER.search(a) and _ANY_MARKER.search(e)):
        return False
    for marker, opposite in _OPPOSITES:
        if (marker.search(e) and opposite.search(a)) or (opposite.search(e) and marker.search(a)):
            return True
    return False


def _context_words(text: str, number: str) -> list[str]:
    found = re.search(r"(\w+\s+)?(\w+\s+)?" + re.escape(number) + r"(\s+\w+)?(\s+\w+)?", text)
    if not found:
        return []
    return [w.lower() for g in found.groups() if g for w in g.split() if not re.match(r"\d", w)]


def _ends_with(text: str, number: str) -> bool:
    return re.search(re.escape(number) + r"[\s,.;!?]*$", text) is not None


def number_context_differs(answer: str, evidence: str) -> bool:
    """A shared number whose neighbouring content words differ ("10 rebounds" / "10 of which")."""
    for number in set(numbers_in(answer)) & set(numbers_in(evidence)):
        mine = _context_words(answer, number)
        if not mine:
            continue
        content = set(mine) - _SLOT_FILLERS
        theirs = _context_words(evidence, number)
        if not theirs:
            if _ends_with(evidence, number) and content:
                return True
        elif content - (set(theirs) - _SLOT_FILLERS):
            return True
    return False


def contradicts(answer: str, evidence: str) -> bool:
    """True when any of the five tests fires."""
    return (
        negation_differs(answer, evidence)
        or numbers_differ(answer, evidence)
        or entities_swapped(answer, evidence)
        or opposite_markers(answer, evidence)
        or number_context_differs(answer, evidence)
    )
