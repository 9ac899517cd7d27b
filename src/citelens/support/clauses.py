"""The clauses of a report sentence: a long sentence states several facts, and "supported"
needs each of them, not just most of its words.

A clause starts after a semicolon, a spaced dash or inside a parenthesis, and after a
comma followed by a coordinating word, a relative pronoun or a participle (clauses.toml,
per language). Splitting is conservative: a piece with fewer than two content terms is
merged into the clause before it, so lists ("A, B and C") stay whole."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

from citelens.support.terms import Term

_ALWAYS = re.compile(r";|\s[-–—]\s|[()\[\]]")
_COMMA_WORD = re.compile(r",\s+(\w+)", re.UNICODE)


@cache
def _table() -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    data = tomllib.loads((Path(__file__).parent / "clauses.toml").read_text(encoding="utf-8"))
    return {
        lang: (frozenset(entry["after_comma"].split()), tuple(entry["participle_endings"].split()))
        for lang, entry in data.items()
    }


def clause_starts(sentence: str, language: str | None) -> list[int]:
    """Offsets in ``sentence`` where a new clause begins (0 first)."""
    starts = {0}
    for m in _ALWAYS.finditer(sentence):
        starts.add(m.end())
    words, endings = _table().get(language or "", (frozenset(), ()))
    for m in _COMMA_WORD.finditer(sentence):
        word = m.group(1).casefold()
        if word in words or (len(word) > 4 and endings and word.endswith(endings)):
            starts.add(m.start(1))
    return sorted(starts)


def clauses(sentence: str, terms: list[Term], language: str | None, min_terms: int = 2) -> list[list[Term]]:
    """The sentence's content terms grouped by clause, in order; a clause with fewer than
    ``min_terms`` content terms joins the one before it (or the one after, if first)."""
    starts = clause_starts(sentence, language)
    groups: list[list[Term]] = [[] for _ in starts]
    i = 0
    for term in terms:
        if not term.content:
            continue
        while i + 1 < len(starts) and term.start >= starts[i + 1]:
            i += 1
        groups[i].append(term)
    merged: list[list[Term]] = []
    for group in groups:
        if not group:
            continue
        if merged and len(group) < min_terms:
            merged[-1].extend(group)
        else:
            merged.append(list(group))
    if len(merged) > 1 and len(merged[0]) < min_terms:
        first = merged.pop(0)  # popped before indexing: the next clause is now merged[0]
        merged[0][:0] = first
    return merged
