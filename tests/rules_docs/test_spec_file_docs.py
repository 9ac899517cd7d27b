"""The spec-file page says how many fields a spec needs, and names them: both must be
the loader's own list, so that a user writing a spec from scratch is not misled."""

from __future__ import annotations

import re
from pathlib import Path

from citelens.specs.model import REQUIRED_FIELDS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "specs.md"
NUMBERS = {"four": 4, "five": 5, "six": 6, "seven": 7}
#: `track` is required by the model but defaults to the spec's id in a file
NEEDED = set(REQUIRED_FIELDS) - {"track"}


def test_the_count_of_required_fields_matches_the_fields_a_spec_needs():
    text = PAGE.read_text(encoding="utf-8")
    counts = re.findall(r"the (\w+) required fields", text)
    assert counts, "the page no longer counts the required fields"
    assert all(NUMBERS[word] == len(NEEDED) for word in counts), counts


def test_the_fields_named_as_needed_are_the_required_ones():
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    needs = re.search(r"Without `extends`, a spec needs (.*?)\. ", text)
    assert needs is not None
    assert set(re.findall(r"`(\w+)`", needs.group(1))) == NEEDED


def test_the_from_scratch_example_gives_exactly_the_required_fields_before_the_options():
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index("a spec from scratch") :].split("\n")[1:]
    keys = [line.split(":")[0].strip() for line in block[: len(NEEDED)]]
    assert set(keys) == NEEDED
