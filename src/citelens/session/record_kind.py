"""What the records of a JSON file are, from its first lines: reports, topics or requests,
corpus documents, or other records (nuggets, rubrics, settings).

A participant's folder holds topics files, corpus samples and nugget files next to the
runs, all `*.jsonl`; checked as runs they flood the Problems panel with `schema` errors.
The names that tell them apart are data: the report markers (`file_kind`), the topic id
members (`topics.fields`) and the corpus shapes (`corpus/shapes.toml`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from citelens.source.file_kind import REPORT_MARKERS

#: how many JSON records of a file are looked at
SAMPLE_RECORDS = 5
#: how much of the file is read for them
HEAD_CHARS = 65536
_REPORT_KEYS = tuple(marker.strip('"') for marker in REPORT_MARKERS)


@dataclass(frozen=True)
class RecordKind:
    """`kind` is "reports", "topics", "documents", "records" (other JSON: nuggets,
    rubrics, requests to a ranker) or "unknown" (nothing parsed: checked as a run, so its
    problems are shown)."""

    kind: str
    detail: str = ""

    @property
    def is_reports(self) -> bool:
        return self.kind in ("reports", "unknown")

    def describe(self) -> str:
        what = {
            "topics": "a topics or requests file",
            "documents": "a corpus (documents)",
            "records": "JSON records",
        }.get(self.kind, "reports")
        return f"{what} ({self.detail})" if self.detail else what


def _records(head: str) -> list[dict[str, Any]]:
    """The first whole JSON objects of the head: one per line, concatenated (`{..}{..}`,
    as some topic files are), pretty-printed, or the items of a top-level array."""
    decoder = json.JSONDecoder()
    text = head.lstrip("\ufeff")
    records: list[dict[str, Any]] = []
    pos = 0
    while len(records) < SAMPLE_RECORDS:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            break
        if text[pos] == "[" and not records:
            pos += 1  # an array's items are read one by one
            continue
        if text[pos] == ",":
            pos += 1
            continue
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError:
            newline = text.find("\n", pos)
            if newline < 0:
                break  # a broken or cut last record
            pos = newline + 1
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


@lru_cache(maxsize=1)
def _shapes() -> tuple[Any, ...]:
    """The corpus shapes, read once (a folder search asks at every file)."""
    from citelens.corpus.shapes import shapes

    return shapes()


def record_kind(head: str) -> RecordKind:
    """The kind of records the start of a file holds."""
    records = _records(head)
    if not records:
        return RecordKind("unknown")
    if any(any(key in r for key in _REPORT_KEYS) or "metadata" in r for r in records):
        return RecordKind("reports")
    from citelens.topics.fields import TOPIC_FIELDS

    first = records[0]
    for shape in _shapes():
        if all(all(key in r for key in shape.requires) for r in records):
            topic_id = next((k for k in TOPIC_FIELDS["id"][:3] if k in first), None)
            if topic_id is None:
                return RecordKind("documents", f"{shape.name}: {', '.join(shape.requires)}")
    topic_id = next((k for k in TOPIC_FIELDS["id"] if k in first), None)
    topic_text = next((k for k in TOPIC_FIELDS["text"] if k in first), None)
    if topic_id is not None and topic_text is not None:
        return RecordKind("topics", f"{topic_id}, {topic_text}")
    keys = ", ".join(list(first)[:4])
    return RecordKind("records", f"keys {keys}" if keys else "empty objects")
