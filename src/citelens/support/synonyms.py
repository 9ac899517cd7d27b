"""Synonyms and irregular forms of English words, as stems (synonyms-en.txt, generated
from WordNet 3.0 by scripts/build_synonyms.py; its licence is WORDNET-LICENSE). Loaded on
the first "partial" English verdict that might be raised, never on a warm re-check."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_TABLE = Path(__file__).parent / "synonyms-en.txt"


@cache
def _lines() -> dict[str, str]:
    """Stem -> its line's other stems, unsplit (split on lookup: loading stays fast)."""
    text = _TABLE.read_text(encoding="utf-8")
    return dict(line.split(" ", 1) for line in text.splitlines() if not line.startswith("#"))


def load() -> int:
    """Load the table now; the number of stems it has."""
    return len(_lines())


@cache
def synonyms(stem: str) -> tuple[str, ...]:
    """The other stems that count as `stem` (none: an empty tuple)."""
    rest = _lines().get(stem)
    return tuple(rest.split()) if rest else ()
