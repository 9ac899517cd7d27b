"""Matching terms of a text: stems of content words, normalised numbers, CJK bigrams.

Tokens come from the alignment tokenizer (code-point spans, NFKC + casefold); a token
joined by inner hyphens or apostrophes is matched part by part ("editor-in-chief",
"Panopoulos's"). Stopwords and units are kept as non-content terms so they can sit inside
an evidence span but never make one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Protocol

from citelens.align.tokenizer import class_string, normalize_token, token_spans
from citelens.support.language import script_of_char
from citelens.support.settings import number_table, short_months, stopword_table

WORD, NAME, NUMBER, STOP = "word", "name", "number", "stop"


class WordStemmer(Protocol):
    """The part of a PyStemmer ``Stemmer`` used here (the package ships no types)."""

    def stemWord(self, word: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Term:
    """One matching unit: its key, its code-point span in the text, and what it is."""

    key: str
    start: int
    end: int
    kind: str

    @property
    def content(self) -> bool:
        return self.kind != STOP


@cache
def _stemmer(language: str) -> WordStemmer | None:
    """A Snowball stemmer (PyStemmer), or None when the language has no algorithm."""
    import Stemmer  # a C extension; loaded on first judgement only

    return Stemmer.Stemmer(language) if language in Stemmer.algorithms() else None


@lru_cache(maxsize=200_000)
def stem(word: str, language: str) -> str:
    stemmer = _stemmer(language)
    return stemmer.stemWord(word) if stemmer is not None else word


def number_key(value: float) -> str:
    """One spelling per value: 4.2e9, 4200000000 and 4,200,000,000 give the same key."""
    if math.isfinite(value) and value == int(value):
        return f"#{int(value)}"
    return f"#{value:.6g}"


def _parse_number(normalized: str) -> float | None:
    try:
        return float(normalized)
    except ValueError:
        # "1.2.3" (a version or a date) is matched as written
        return None


def _parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sub-spans of a token split at its inner hyphens and apostrophes."""
    classes = class_string(text[start:end])
    parts = []
    begin = 0
    for i, cls in enumerate(classes):
        if cls == "'":
            if i > begin:
                parts.append((start + begin, start + i))
            begin = i + 1
    if len(classes) > begin:
        parts.append((start + begin, end))
    return parts


def _is_cjk(word: str) -> bool:
    return any(script_of_char(c) in ("cjk", "hiragana", "katakana") for c in word)


def extract_terms(text: str, language: str | None) -> list[Term]:
    """The terms of ``text`` in order, stemmed for ``language`` (None: no stemming)."""
    scales, number_words, units = number_table()
    stopwords = stopword_table().get(language or "", ("", frozenset()))[1]
    if language not in (None, "english"):
        stopwords = stopwords | stopword_table()["english"][1]  # English names and quotes abound
    terms: list[Term] = []
    spans = _outside_markers(text, token_spans(text))
    previous_number: Term | None = None
    first_word_seen = False
    months = short_months() if language in (None, "english") else {}
    for index, (start, end) in enumerate(spans):
        raw = text[start:end]
        normalized = normalize_token(raw)
        if not normalized:
            continue
        # "Feb 2021" is February 2021 (a short month alone may be a name: "Jan")
        month = months.get(normalized)
        if month is not None and not _next_to_a_number(text, spans, index):
            month = None
        if normalized[0].isdigit():
            if previous_number is not None and _thousands_group(text, previous_number, start, end):
                # "11 000", "10 000": a group of thousands set off by a space
                grouped = int(text[previous_number.start : end].translate(_GROUP_SPACES))
                previous_number = Term(number_key(grouped), previous_number.start, end, NUMBER)
                terms[-1] = previous_number
                continue
            value = _parse_number(normalized)
            key = number_key(value) if value is not None else "#" + normalized
            previous_number = Term(key, start, end, NUMBER)
            terms.append(previous_number)
            continue
        if previous_number is not None and normalized in _ORDINAL_SUFFIXES and start == previous_number.end:
            terms.append(Term(normalized, start, end, STOP))  # "13th": the number 13
            previous_number = None
            continue
        if previous_number is not None and normalized in scales:
            value = _parse_number(previous_number.key[1:])
            if value is not None:  # "4.2 billion": the number term takes the scaled value
                terms[-1] = Term(number_key(value * scales[normalized]), previous_number.start, end, NUMBER)
                previous_number = None
                continue
        if previous_number is not None and normalized in units:
            terms.append(Term("unit:" + units[normalized], start, end, STOP))
            previous_number = None
            continue
        pieces = _parts(text, start, end)
        if previous_number is not None and len(pieces) > 1:
            head = normalize_token(text[pieces[0][0] : pieces[0][1]])
            value = _parse_number(previous_number.key[1:]) if head in scales else None
            if value is not None:  # "5.6 million-view": 5.6e6, then the word "view"
                scaled = number_key(value * scales[head])
                terms[-1] = Term(scaled, previous_number.start, pieces[0][1], NUMBER)
                pieces = pieces[1:]
        previous_number = None
        if normalized in ("percent", "dollar", "euro", "pound"):  # symbols spelled out
            terms.append(Term("unit:" + normalized, start, end, STOP))
            continue
        if normalized in number_words:
            terms.append(Term(number_key(number_words[normalized]), start, end, NUMBER))
            continue
        is_name = first_word_seen and raw[:1].isupper()
        first_word_seen = True
        for p_start, p_end in pieces:
            part = month or normalize_token(text[p_start:p_end])
            if not part:
                continue
            if _is_cjk(part):
                terms.extend(_bigrams(text, p_start, p_end))
                continue
            if part in stopwords or len(part) < 2:
                terms.append(Term(part, p_start, p_end, STOP))
                continue
            key = stem(part, language) if language else part
            terms.append(Term(key, p_start, p_end, NAME if is_name else WORD))
    return terms


def _next_to_a_number(text: str, spans: list[tuple[int, int]], index: int) -> bool:
    """True if the token before or after ``spans[index]`` is written with digits first."""
    return any(
        0 <= i < len(spans) and text[spans[i][0] : spans[i][0] + 1].isdigit() for i in (index - 1, index + 1)
    )


_ORDINAL_SUFFIXES = frozenset(("st", "nd", "rd", "th"))
_GROUP_SPACES = {ord(c): None for c in " \u00a0\u2009\u202f"}
_GROUPED = re.compile(r"\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})*")


def _thousands_group(text: str, previous: Term, start: int, end: int) -> bool:
    """True if the digits at start..end continue the number before them as a group of
    thousands: exactly three digits, one space apart from a 1-3 digit number (or group)."""
    return (
        end - start == 3
        and text[start:end].isdigit()
        and start - previous.end == 1
        and text[previous.end] in " \u00a0\u2009\u202f"
        and _GROUPED.fullmatch(text, previous.start, previous.end) is not None
    )


_MARKERS = re.compile(r"【[^】]*】")


def _outside_markers(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop tokens inside inline citation markers (【doc_id】): they are not claims."""
    if "【" not in text:
        return spans
    marked = [m.span() for m in _MARKERS.finditer(text)]
    return [s for s in spans if not any(a <= s[0] < b for a, b in marked)]


def _bigrams(text: str, start: int, end: int) -> list[Term]:
    """Chinese and Japanese are written without spaces: overlapping character pairs."""
    if end - start == 1:
        return [Term(text[start:end].casefold(), start, end, WORD)]
    return [Term(text[i : i + 2].casefold(), i, i + 2, WORD) for i in range(start, end - 1)]
