"""The topics page's precedence table is the field table: docs cannot drift from the data."""

from __future__ import annotations

import re
from pathlib import Path

from citelens.topics import TOPIC_FIELDS

DOC = Path(__file__).parents[2] / "docs" / "topics-and-configuration.md"


def test_documented_precedence_matches_topic_fields() -> None:
    rows = dict(re.findall(r"^\| (id|text|limit) \| (.+?) \|$", DOC.read_text(encoding="utf-8"), re.M))
    for attribute, names in TOPIC_FIELDS.items():
        assert re.findall(r"`([a-z_]+)`", rows[attribute]) == list(names)
