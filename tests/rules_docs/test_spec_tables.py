"""The rule documentation's tables of the built-in specs follow the spec data: a new track
year shows in them once `python docs/gen_rule_pages.py` has run (a docs test fails until then)."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

import citelens.specs
from citelens.specs import builtin_specs

_PATH = Path(__file__).resolve().parents[2] / "docs" / "spec_tables.py"


def _spec_tables():
    spec = importlib.util.spec_from_file_location("spec_tables", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_new_year_in_the_spec_data_gets_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = dict(builtin_specs())
    specs["rag27"] = replace(specs["rag26"], track="rag27", length_limit=2048, docid_pattern=r"doc_\d+")
    monkeypatch.setattr(citelens.specs, "builtin_specs", lambda: specs)
    tables = _spec_tables()
    assert "| `rag27` | 2048 words (error) |" in tables.length_rows()
    assert any(row.startswith("| `rag27` | `doc_\\d+` |") for row in tables.docid_rows())
    # same mandatory metadata as rag26: one row for both
    assert (
        "| `rag26`, `rag27` | team_id, narrative_id, narrative, run_id, run_desc |" in tables.metadata_rows()
    )


def test_a_table_is_replaced_between_its_header_and_the_prose() -> None:
    tables = _spec_tables()
    text = "before\n\n| spec | limit |\n|---|---|\n| `old` | 1 word |\n\nafter"
    out = tables.with_tables("length.md", text)
    assert out.startswith("before\n\n| spec | limit |\n|---|---|\n| `rag26` |") and out.endswith("\n\nafter")
    assert "`old`" not in out
