"""The default spec of a family follows the spec data: a new year added there is the new default."""

from __future__ import annotations

import pytest

import citelens.specs
from citelens.specs import builtin_specs, newest_spec


def test_the_newest_year_of_each_family_is_its_default() -> None:
    assert (newest_spec("rag"), newest_spec("ragtime"), newest_spec("dragun")) == (
        "rag26",
        "ragtime26",
        "dragun25",
    )


def test_a_year_added_to_the_spec_data_becomes_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = dict(builtin_specs())
    specs["rag27"] = specs["rag26"]
    monkeypatch.setattr(citelens.specs, "builtin_specs", lambda: specs)
    assert newest_spec("rag") == "rag27"
    assert newest_spec("ragtime") == "ragtime26"  # not a year of rag


def test_an_unknown_family_is_named() -> None:
    with pytest.raises(KeyError, match="'nope'"):
        newest_spec("nope")
