"""The vocabulary of spec files, and the spec model (`TrackSpec`, kept with the rules
that read it) with the finding codes a spec may name (from the rule registry).

Field names and meanings follow autojudge-base's track_specs.yml so that a user's spec
file for that library loads here unchanged; the fields after `smells` are CiteLens
additions for the flat rag24 format and the strict official-validator profiles.
"""

from __future__ import annotations

from citelens.check.registry import (
    DEFAULT_SMELLS,
    FILE_CODES,
    FINDING_CODES,
    REPORT_CODES,
    SMELL_CODES,
    STRUCTURE_CODES,
)
from citelens.check.spec_table import (
    LAYOUTS,
    LENGTH_UNITS,
    REFERENCES_KINDS,
    SENTENCE_TYPES,
    SENTENCES_KEYS,
    TASKS,
    TOPIC_ID_FIELDS,
)
from citelens.check.track_spec import REQUIRED_FIELDS, SPEC_FIELDS, TrackSpec

__all__ = [
    "DEFAULT_SMELLS",
    "FILE_CODES",
    "FINDING_CODES",
    "LAYOUTS",
    "LENGTH_UNITS",
    "REFERENCES_KINDS",
    "REPORT_CODES",
    "REQUIRED_FIELDS",
    "SENTENCES_KEYS",
    "SENTENCE_TYPES",
    "SMELL_CODES",
    "SPEC_FIELDS",
    "STRUCTURE_CODES",
    "TASKS",
    "TOPIC_ID_FIELDS",
    "TrackSpec",
]
