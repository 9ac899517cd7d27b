"""The documentation page on track specs and spec files (docs/specs.md) says what the code
does: its spec file examples load, and its fields table lists every spec field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citelens.specs import builtin_specs
from citelens.specs.loader import parse_spec_text
from citelens.specs.model import SPEC_FIELDS, STRUCTURE_CODES

PAGE = (Path(__file__).parents[2] / "docs" / "specs.md").read_text(encoding="utf-8")


def _block(lang: str) -> str:
    m = re.search(rf"^```{lang}\n(.*?)^```", PAGE, re.S | re.M)
    assert m, lang
    return m.group(1)


@pytest.mark.parametrize("lang, suffix", [("yaml", ".yaml"), ("toml", ".toml")])
def test_spec_file_examples_load(lang: str, suffix: str) -> None:
    specs = parse_spec_text(_block(lang), "example" + suffix, base=builtin_specs())
    mine = specs["my-rag26"]
    assert mine.max_citations_per_sentence == 2 and mine.length_limit == 1024  # the rest from rag26
    lab = specs["lab-reports"]
    assert lab.track == "lab-reports" and lab.docid_ok("doc-12") and not lab.docid_ok("doc-12x")


def test_fields_table_lists_every_spec_field() -> None:
    table = re.findall(r"^\| `([a-z_]+)` \|", PAGE, re.M)
    assert table == list(SPEC_FIELDS)


def test_always_error_codes_are_named() -> None:
    for code in STRUCTURE_CODES:
        assert f"`{code}`" in PAGE
