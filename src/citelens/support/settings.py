"""The support judge's thresholds: defaults in thresholds.toml, overridable per project."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class SupportSettings(BaseModel):
    """Typed, fully defaulted thresholds (names and meaning documented in thresholds.toml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_content_terms: int = Field(ge=1)
    max_passages: int = Field(ge=1)
    min_extra_terms: int = Field(ge=1)
    supported_coverage: float = Field(ge=0.0, le=1.0)
    unsupported_coverage: float = Field(ge=0.0, le=1.0)
    min_matched_terms: int = Field(ge=0)
    number_weight: float = Field(gt=0.0)
    name_weight: float = Field(gt=0.0)
    word_weight: float = Field(gt=0.0)
    min_suffix_match: int = Field(ge=0)
    min_prefix_match: int = Field(ge=0)
    merge_gap_chars: int = Field(ge=0)
    min_language_hits: int = Field(ge=1)
    language_margin: float = Field(ge=1.0)
    language_sample_chars: int = Field(ge=100)

    def with_overrides(self, overrides: dict[str, Any]) -> SupportSettings:
        """A copy with some values replaced, validated like the defaults."""
        return SupportSettings.model_validate({**self.model_dump(), **overrides})


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files("citelens.support").joinpath(name).read_text(encoding="utf-8"))


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
def number_table() -> tuple[dict[str, float], dict[str, float], dict[str, str]]:
    """(scale words, number words, unit aliases)."""
    data = _data("numbers.toml")
    return (
        {k: float(v) for k, v in data["scales"].items()},
        {k: float(v) for k, v in data["words"].items()},
        dict(data["units"]),
    )
