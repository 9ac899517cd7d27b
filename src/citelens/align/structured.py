"""Detection of flattened ``field: value`` sources, which get a gap-free re-alignment.

Rewrites of such records reorder the values ("open Monday to Friday" for
``hours.Monday: ...``), so a second Smith-Waterman pass without gap penalty is run on
their passages; prose sources are never re-aligned.
"""

from __future__ import annotations


def _is_field_line(line: str) -> bool:
    field, sep, value = line.partition(":")
    if not sep:
        return False
    field = field.strip()
    value = value.strip()
    if not field or not value:
        return False
    return all(ch.isalnum() or ch in "._-" for ch in field) and len(value.split()) <= 10


def looks_structured(text: str) -> bool:
    """At least two, and at least half, of the first ten non-empty lines are field lines."""
    lines = text.strip().split("\n")
    if len(lines) < 2:
        return False
    non_empty = 0
    fields = 0
    for raw in lines[:10]:
        line = raw.strip()
        if not line:
            continue
        non_empty += 1
        fields += _is_field_line(line)
    return non_empty > 0 and fields >= 2 and fields / non_empty >= 0.5


def split_range_dashes(text: str) -> str:
    """En dash, em dash and minus become spaces, so "Monday–Friday" gives two tokens."""
    return text.replace("\u2013", " ").replace("\u2014", " ").replace("\u2212", " ")
