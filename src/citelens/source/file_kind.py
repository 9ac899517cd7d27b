"""What a file that holds no JSON reports looks like, said once for the whole file.

A UTF-16 file, a TREC run, qrels or a TSV table given as a run would otherwise get one
finding per byte or per line and a count of "300 reports"; one finding naming what the
file is and what a run must be helps more. The patterns are data (`TABLE_KINDS`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

EXPECTED = "a run holds JSON reports, one object per line"

#: byte-order marks of the encodings a run must not be in -> their name
WIDE_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "UTF-32 (little-endian)"),
    (codecs.BOM_UTF32_BE, "UTF-32 (big-endian)"),
    (codecs.BOM_UTF16_LE, "UTF-16 (little-endian)"),
    (codecs.BOM_UTF16_BE, "UTF-16 (big-endian)"),
)

#: (what the file is, the pattern every sampled line matches)
TABLE_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "a TREC run file (topic Q0 doc-id rank score tag)",
        re.compile(r"\S+[ \t]+Q0[ \t]+\S+[ \t]+-?\d+[ \t]+\S+[ \t]+\S+[ \t]*"),
    ),
    (
        "TREC relevance judgments (qrels: topic 0 doc-id grade)",
        re.compile(r"\S+[ \t]+\S+[ \t]+\S+[ \t]+-?\d+[ \t]*"),
    ),
)
SAMPLE_LINES = 20
#: keys every report has one of (its sentence list): a `.json` file without any of them in
#: its first bytes holds no reports (package.json, editor settings)
REPORT_MARKERS = ('"answer"', '"responses"')
MARKER_BYTES = 65536


@dataclass(frozen=True)
class FileKind:
    """What the file is instead of a run, and where to put the one finding."""

    message: str
    start: int
    end: int


def wide_encoding(data: bytes) -> str | None:
    """The name of a UTF-16/UTF-32 encoding the bytes are in (by byte-order mark, or by
    the NUL bytes between ASCII characters that such text without a mark has)."""
    for bom, name in WIDE_BOMS:
        if data.startswith(bom):
            return name
    head = data[:64]
    every_other_nul = not any(head[0::2]) or not any(head[1::2])
    if len(head) >= 8 and every_other_nul:
        return "UTF-16 (big-endian)" if head[0] == 0 else "UTF-16 (little-endian)"
    return None


def table_kind(text: str, first: int) -> FileKind | None:
    """A text whose first character (at `first`) cannot start a report: is it a table?"""
    if text[first] in "{[":
        return None
    lines = [line for line in text[first:].splitlines()[: SAMPLE_LINES * 2] if line.strip()][:SAMPLE_LINES]
    if not lines:  # only characters str.strip drops but JSON does not (\x0b, \x1c, ...)
        return None
    end = first + len(lines[0])
    for name, pattern in TABLE_KINDS:
        if all(pattern.fullmatch(line) for line in lines):
            return FileKind(f"this is {name}, not a report run; {EXPECTED}", first, end)
    columns = {line.count("\t") for line in lines}
    if len(columns) == 1 and min(columns) >= 1:
        what = f"a tab-separated table (TSV, {min(columns) + 1} columns)"
        return FileKind(f"this is {what}, not a report run; {EXPECTED} (is it the topics file?)", first, end)
    return None


def may_hold_reports(head: str) -> bool:
    """Whether the start of a `.json` file could be a report or a list of reports."""
    return any(marker in head for marker in REPORT_MARKERS)
