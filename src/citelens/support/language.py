"""Which writing system and language a text is in, to pick a stemmer and to refuse to judge
across languages (an English sentence against a Persian document is not "unsupported")."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from citelens.support.settings import SupportSettings, stopword_table

# Scripts whose texts are languages we know without stopword counting.
_SINGLE_LANGUAGE_SCRIPTS = {
    "cjk": "chinese",
    "hiragana": "japanese",
    "katakana": "japanese",
    "hangul": "korean",
    "greek": "greek",
    "devanagari": "hindi",
    "hebrew": "hebrew",
    "thai": "thai",
    "armenian": "armenian",
    "tamil": "tamil",
}
# The language assumed for stemming when stopwords do not settle it.
SCRIPT_DEFAULT_LANGUAGE = {"latin": "english", "cyrillic": "russian", "arabic": "arabic"}
# Letters that only Persian (not Arabic) uses.
_PERSIAN_LETTERS = frozenset("پچژگ")
_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def script_of_char(char: str) -> str:
    """Lower-case Unicode script family of a letter ("latin", "cyrillic", "cjk", ...)."""
    if char.isascii():
        return "latin"
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0].lower()
    if first in ("cjk", "ideographic"):
        return "cjk"
    return first or "unknown"


@dataclass(frozen=True, slots=True)
class LanguageGuess:
    """The dominant script of a text and, when the evidence is strong enough, its language."""

    script: str | None
    language: str | None
    confident: bool


def guess_language(text: str, settings: SupportSettings) -> LanguageGuess:
    """Script by letter counts; language by script, or by stopword hits within the script."""
    letters = Counter(script_of_char(c) for c in text if c.isalpha())
    if not letters:
        return LanguageGuess(None, None, False)
    script = letters.most_common(1)[0][0]
    if script in _SINGLE_LANGUAGE_SCRIPTS:
        return LanguageGuess(script, _SINGLE_LANGUAGE_SCRIPTS[script], True)
    if script == "arabic" and any(c in _PERSIAN_LETTERS for c in text):
        return LanguageGuess(script, "persian", True)
    words = [w.casefold() for w in _WORD.findall(text)]
    hits = []
    for language, (lang_script, stopwords) in stopword_table().items():
        if lang_script == script:
            hits.append((sum(1 for w in words if w in stopwords), language))
    if not hits:
        return LanguageGuess(script, None, False)
    hits.sort(key=lambda h: -h[0])
    best_hits, best = hits[0]
    second = hits[1][0] if len(hits) > 1 else 0
    confident = best_hits >= settings.min_language_hits and best_hits >= settings.language_margin * second
    return LanguageGuess(script, best if confident else None, confident)


def different_languages(sentence: LanguageGuess, document: LanguageGuess) -> bool:
    """True when the two are surely written in different languages."""
    if sentence.script is None or document.script is None:
        return False
    if sentence.script != document.script:
        return True
    return (
        sentence.confident
        and document.confident
        and sentence.language is not None
        and document.language is not None
        and sentence.language != document.language
    )
