"""The support judge's thresholds: defaults in thresholds.toml, overridable per project.

A named tuple checked against a table of allowed ranges (no pydantic: a
warm `check --support` should not pay for importing it)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

#: name -> (type, lowest, highest, lowest allowed itself?) of every threshold
_RANGES: dict[str, tuple[type, float, float | None, bool]] = {
    "min_content_terms": (int, 1, None, True),
    "max_passages": (int, 1, None, True),
    "min_extra_terms": (int, 1, None, True),
    "supported_coverage": (float, 0.0, 1.0, True),
    "unsupported_coverage": (float, 0.0, 1.0, True),
    "min_matched_terms": (int, 0, None, True),
    "number_weight": (float, 0.0, None, False),
    "name_weight": (float, 0.0, None, False),
    "word_weight": (float, 0.0, None, False),
    "min_suffix_match": (int, 0, None, True),
    "min_prefix_match": (int, 0, None, True),
    "merge_gap_chars": (int, 0, None, True),
    "min_language_hits": (int, 1, None, True),
    "language_margin": (float, 1.0, None, True),
    "language_sample_chars": (int, 100, None, True),
    "high_tier_coverage": (float, 0.0, 1.0, True),
    "clause_coverage": (float, 0.0, 1.0, True),
    "number_pair_window": (int, 0, None, True),
    "use_synonyms": (int, 0, 1, True),
    "max_missing_terms": (int, 0, None, True),
    "topic_passage_share": (float, 0.0, 1.0, True),
    "min_claim_found": (float, 0.0, 1.0, True),
}


class ThresholdError(ValueError):
    """A threshold that cannot be used: ``name`` and what is wrong (the message)."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(problem)
        self.name = name
        self.problem = problem


def _checked(name: str, value: Any) -> Any:
    """``value`` as the threshold's type (int or float), or ThresholdError."""
    if name not in _RANGES:
        raise ThresholdError(name, f"unknown support threshold {name!r}")
    kind, low, high, low_ok = _RANGES[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ThresholdError(name, f"must be a number, not {value!r}")
    if kind is int and value != int(value):
        raise ThresholdError(name, f"must be a whole number, not {value!r}")
    if value < low or (value == low and not low_ok):
        raise ThresholdError(name, f"must be {'at least' if low_ok else 'greater than'} {low}, not {value!r}")
    if high is not None and value > high:
        raise ThresholdError(name, f"must be at most {high}, not {value!r}")
    return kind(value)


class SupportSettings(NamedTuple):
    """Typed, fully defaulted thresholds (names and meaning documented in thresholds.toml).
    A named tuple: immutable and hashable like a frozen dataclass, and a tenth of the
    import time (every `check --support` imports it, a warm one for little else)."""

    min_content_terms: int
    max_passages: int
    min_extra_terms: int
    supported_coverage: float
    unsupported_coverage: float
    min_matched_terms: int
    number_weight: float
    name_weight: float
    word_weight: float
    min_suffix_match: int
    min_prefix_match: int
    merge_gap_chars: int
    min_language_hits: int
    language_margin: float
    language_sample_chars: int
    high_tier_coverage: float
    clause_coverage: float
    number_pair_window: int
    use_synonyms: int
    max_missing_terms: int
    topic_passage_share: float
    min_claim_found: float

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The threshold names."""
        return cls._fields

    @classmethod
    def model_validate(cls, data: dict[str, Any]) -> SupportSettings:
        """Settings from a complete table; a missing, unknown or out-of-range value raises
        ThresholdError."""
        for name in data:
            if name not in _RANGES:
                raise ThresholdError(name, f"unknown support threshold {name!r}")
        missing = [name for name in cls._fields if name not in data]
        if missing:
            raise ThresholdError(missing[0], f"{missing[0]} is missing")
        return cls(**{name: _checked(name, value) for name, value in data.items()})

    def model_dump(self) -> dict[str, Any]:
        return self._asdict()

    def with_overrides(self, overrides: dict[str, Any]) -> SupportSettings:
        """A copy with some values replaced, checked like the defaults."""
        return self._replace(**{name: _checked(name, value) for name, value in overrides.items()})


def _data(name: str) -> dict[str, Any]:
    # beside this module (not importlib.resources, whose readers cost a warm re-check imports)
    return tomllib.loads((Path(__file__).parent / name).read_text(encoding="utf-8"))


@cache
def default_settings() -> SupportSettings:
    """The shipped thresholds."""
    return SupportSettings.model_validate(_data("thresholds.toml"))


@cache
def stopword_table() -> dict[str, tuple[str, frozenset[str]]]:
    """Language -> (script, stopwords)."""
    return {
        lang: (entry["script"], frozenset(entry["words"].split()))
        for lang, entry in _data("stopwords.toml").items()
    }


@cache
def negation_table() -> dict[str, frozenset[str]]:
    """Language -> words that deny or state an absence ("n't": English contractions)."""
    return {lang: frozenset(words.split()) for lang, words in _data("negations.toml").items()}


@cache
def number_table() -> tuple[dict[str, float], dict[str, float], dict[str, str]]:
    """(scale words, number words, unit aliases)."""
    data = _data("numbers.toml")
    return (
        {k: float(v) for k, v in data["scales"].items()},
        {k: float(v) for k, v in data["words"].items()},
        dict(data["units"]),
    )


@cache
def month_names() -> frozenset[str]:
    """Month names and their short forms, casefolded (a number before one is a date)."""
    return frozenset(_data("numbers.toml")["dates"]["months"].split())


@cache
def short_months() -> dict[str, str]:
    """English short month names -> the full name ("feb" -> "february")."""
    return dict(_data("numbers.toml")["dates"]["english_short"])
