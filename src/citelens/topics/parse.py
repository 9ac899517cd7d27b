"""Read a topics file in any of its real shapes into a `TopicSet`.

The shape is decided once, by the first non-blank character: `[` a JSON array, `{` a
stream of JSON objects (JSON lines, concatenated `{..}{..}` objects, or pretty-printed
ones), anything else TSV `id<TAB>text`. The JSON work is done by the stdlib's C decoder,
one `raw_decode` per record, so thousands of topics load in milliseconds. The first
problem stops the read with a `TopicFileError` that names the line: a topics file that
is half right would silently produce wrong `missing_topics`/`new_topics` findings.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from citelens.files.peek import describe_start, looks_binary
from citelens.source.line_index import LINE_BREAK, LineIndex
from citelens.topics.fields import TSV_HEADER_IDS
from citelens.topics.model import Topic, TopicFileError, TopicFormat, TopicSet
from citelens.topics.record import RecordError, topic_from_object, topic_from_row

_JSON_WS = re.compile(r"[ \t\n\r]*")


def _skip_ws(text: str, pos: int) -> int:
    """The position after the JSON whitespace at `pos`."""
    m = _JSON_WS.match(text, pos)
    return m.end() if m else pos


_DECODER = json.JSONDecoder()


class _Collector:
    """Topics in file order, with the duplicate-id rule and positioned errors."""

    def __init__(self, text: str, name: str):
        self.name = name
        self.index = LineIndex(text)
        self.topics: dict[str, Topic] = {}

    def error(self, offset: int, message: str) -> TopicFileError:
        line, col = self.index.position(offset)
        return TopicFileError(self.name, line + 1, col + 1, message)

    def add(self, topic: Topic, offset: int) -> None:
        first = self.topics.get(topic.id)
        if first is not None:
            raise self.error(offset, f"duplicate topic id {topic.id!r} (first on line {first.line})")
        self.topics[topic.id] = topic


def _snippet(text: str, offset: int) -> str:
    return repr(LINE_BREAK.split(text[offset : offset + 40], 1)[0])


def _decode_object(text: str, pos: int, out: _Collector) -> int:
    """Decode the object at `pos` into a topic; return the offset after it."""
    if text[pos] != "{":
        raise out.error(pos, f"expected a JSON object ({{...}}), found {_snippet(text, pos)}")
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise out.error(exc.pos, f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise out.error(pos, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise out.error(pos, f"not valid JSON: {exc}") from None
    line = out.index.line_of(pos) + 1
    try:
        topic = topic_from_object(value, line)
    except RecordError as exc:
        raise out.error(pos, str(exc)) from None
    out.add(topic, pos)
    return end


def _json_lines_fast(text: str, out: _Collector) -> bool:
    """The common shape, one object per line, decoded line by line (no offsets to track).
    Returns False, having added nothing, at anything unusual: the exact path then reads
    the file again and names the problem."""
    if "\r" in text:
        return False
    found: dict[str, Topic] = {}
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = _DECODER.decode(line)
            topic = topic_from_object(value, n) if isinstance(value, dict) else None
        except (ValueError, RecursionError, RecordError):
            return False
        if topic is None or topic.id in found:
            return False
        found[topic.id] = topic
    out.topics.update(found)
    return True


def _parse_object_stream(text: str, out: _Collector) -> TopicFormat:
    if _json_lines_fast(text, out):
        return "jsonl"
    fmt: TopicFormat = "jsonl"
    pos = _skip_ws(text, 0)
    while pos < len(text):
        if text[pos] != "{":
            raise out.error(
                pos,
                f"expected a JSON object ({{...}}), found {_snippet(text, pos)}; "
                "this file started as JSON lines, and a topics file holds one format",
            )
        end = _decode_object(text, pos, out)
        nxt = _skip_ws(text, end)
        if nxt < len(text) and out.index.line_of(nxt) == out.index.line_of(end - 1):
            fmt = "concatenated"
        pos = nxt
    return fmt


def _parse_array(text: str, out: _Collector) -> TopicFormat:
    pos = _skip_ws(text, text.index("[") + 1)
    if text.startswith("]", pos):
        pos += 1
    else:
        while True:
            if pos >= len(text):
                raise out.error(pos, "the JSON array is not closed: expected a topic object or ']'")
            if text[pos] != "{":
                raise out.error(
                    pos, f"array items must be topic objects ({{...}}), found {_snippet(text, pos)}"
                )
            pos = _skip_ws(text, _decode_object(text, pos, out))
            if text.startswith(",", pos):
                pos = _skip_ws(text, pos + 1)
            elif text.startswith("]", pos):
                pos += 1
                break
            else:
                found = _snippet(text, pos) if pos < len(text) else "the end of the file"
                raise out.error(pos, f"expected ',' or ']' after an array item, found {found}")
    pos = _skip_ws(text, pos)
    if pos < len(text):
        raise out.error(pos, f"unexpected text after the JSON array: {_snippet(text, pos)}")
    return "json-array"


def _parse_tsv(text: str, out: _Collector) -> TopicFormat:
    offset, first_row = 0, True
    for raw in LINE_BREAK.split(text):
        line_start, offset = offset, offset + len(raw)
        offset += 2 if text.startswith("\r\n", offset) else 1
        if not raw.strip():
            continue
        if "\t" not in raw:
            stripped = raw.lstrip()
            start = line_start + len(raw) - len(stripped)
            if stripped[:1] in ("{", "["):
                raise out.error(
                    start,
                    "this line is JSON, but the file started as TSV (id<TAB>text); "
                    "a topics file holds one format",
                )
            raise out.error(
                start, f"neither TSV (id<TAB>text) nor JSON: {_snippet(raw, len(raw) - len(stripped))}"
            )
        topic_id, topic_text = raw.split("\t", 1)
        topic_id = topic_id.strip()
        if first_row and topic_id.lower() in TSV_HEADER_IDS:
            first_row = False
            continue  # a header row, e.g. `qid<TAB>query`
        first_row = False
        if not topic_id:
            raise out.error(line_start, "empty topic id before the tab (expected id<TAB>text)")
        out.add(topic_from_row(topic_id, topic_text, out.index.line_of(line_start) + 1), line_start)
    return "tsv"


def parse_topics(text: str, name: str = "<topics>") -> TopicSet:
    """Topics from text already in memory (the language server's open buffer).

    Raises `TopicFileError` (and nothing else) for any text that is not a topics file.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    out = _Collector(text, name)
    head = text.lstrip()
    if not head:
        raise TopicFileError(name, 1, 1, "no topics: the file is empty")
    if not _looks_like_topics(text):  # then no excerpt of it: it may hold anything (a secret)
        raise TopicFileError(
            name,
            1,
            1,
            "not a topics file: expected TSV (id<TAB>text), JSON lines or a JSON array; "
            f"this file is {describe_start(text)}",
        )
    if head[0] == "[":
        fmt = _parse_array(text, out)
    elif head[0] == "{":
        fmt = _parse_object_stream(text, out)
    else:
        fmt = _parse_tsv(text, out)
    if not out.topics:
        raise TopicFileError(name, 1, 1, "no topics: the file holds only a header or an empty array")
    return TopicSet(out.topics, name, fmt)


def _looks_like_topics(text: str) -> bool:
    """Does the text start the way a topics file does? Only then may a message quote it."""
    if looks_binary(text):
        return False
    first = next((line for line in LINE_BREAK.split(text[:65536]) if line.strip()), "")
    return first.lstrip()[:1] in ("{", "[") or "\t" in first


def load_topics(path: str | Path) -> TopicSet:
    """Topics from a file (UTF-8, BOM and CRLF tolerated); raises `TopicFileError`."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise TopicFileError(name, 0, 0, f"cannot read the topics file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        raise TopicFileError(
            name,
            data.count(b"\n", 0, exc.start) + 1,
            column,
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded",
        ) from None
    return parse_topics(text, name)
