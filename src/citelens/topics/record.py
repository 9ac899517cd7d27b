"""One record (a JSON object or a TSV row) -> `Topic`, following `TOPIC_FIELDS`."""

from __future__ import annotations

from typing import Any

from citelens.source.json_types import json_shown, json_type
from citelens.topics.fields import TOPIC_FIELDS
from citelens.topics.model import Topic

ID_FIELDS = TOPIC_FIELDS["id"]
TEXT_FIELDS = TOPIC_FIELDS["text"]
LIMIT_FIELDS = TOPIC_FIELDS["limit"]


class RecordError(ValueError):
    """A record that is not a topic; the parser adds the file, line and column."""


def _first(record: dict[str, Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    for name in names:
        value = record.get(name)
        if value is not None:
            return name, value
    return None


def _topic_id(record: dict[str, Any]) -> str:
    found = _first(record, ID_FIELDS)
    if found is None:
        keys = ", ".join(repr(k) for k in list(record)[:8]) or "none"
        raise RecordError(f"no topic id: the object has none of {', '.join(ID_FIELDS)} (its keys: {keys})")
    name, value = found
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RecordError(f"topic id {name!r} must be a string or an integer, not {json_type(value)}")
    topic_id = str(value)
    if not topic_id.strip():
        raise RecordError(f"topic id {name!r} is empty")
    return topic_id


def _text(record: dict[str, Any]) -> str | None:
    found = _first(record, TEXT_FIELDS)
    if found is None:
        return None
    name, value = found
    if not isinstance(value, str):
        raise RecordError(f"topic text {name!r} must be a string, not {json_type(value)}")
    return value


def _limit(record: dict[str, Any]) -> int | None:
    found = _first(record, LIMIT_FIELDS)
    if found is None:
        return None
    name, value = found
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name!r} must be an integer, not {json_shown(value)}")
    return value


def topic_from_object(record: dict[str, Any], line: int) -> Topic:
    """A JSON object as a topic; raises `RecordError` saying what is missing or wrong."""
    return Topic(_topic_id(record), _text(record), _limit(record), line, record)


def topic_from_row(topic_id: str, text: str, line: int) -> Topic:
    """A TSV row `id<TAB>text` as a topic."""
    return Topic(topic_id, text, None, line, {"id": topic_id, "text": text})
