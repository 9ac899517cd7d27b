"""Whether a piece of text denies something or states an absence (negations.toml).

A sentence such as "Lebanon has received no extradition request" shares its words with a
document that reports the request; only a document that also denies it supports the
sentence. The judge uses this to keep such a pair from "supported"."""

from __future__ import annotations

import re
from functools import cache

from citelens.support.settings import negation_table


@cache
def _pattern(language: str | None) -> re.Pattern[str] | None:
    words = negation_table().get(language or "")
    if not words:
        return None
    whole = sorted((w for w in words if w != "n't" and not w.endswith("'")), key=len, reverse=True)
    parts = [rf"(?<!\w)(?:{'|'.join(map(re.escape, whole))})(?!\w)"]
    elided = [w[:-1] for w in words if w.endswith("'") and w != "n't"]  # French "n'a"
    if elided:
        parts.append(rf"(?<!\w)(?:{'|'.join(map(re.escape, elided))})['’]")
    if "n't" in words:  # don't, isn’t
        parts.append(r"(?<=\w)n['’]t(?!\w)")
    return re.compile("|".join(parts), re.IGNORECASE)


def states_negation(text: str, language: str | None) -> bool:
    """True if ``text`` holds a denying word of ``language`` (False for a language without a list)."""
    pattern = _pattern(language)
    return pattern is not None and pattern.search(text) is not None
