"""A checked file as text plus report items: JSONL lines, array elements, or one object.

Each item knows its span in the file. Its Python value comes from `json.loads` (fast,
C); the positioned node tree is built only when something needs a position.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from citelens.source.file_kind import EXPECTED, table_kind, wide_encoding
from citelens.source.json_nodes import Node
from citelens.source.json_scan import LONE_SURROGATE, MAX_DEPTH, JsonSyntaxError, ValueProblem, parse
from citelens.source.json_speedups import skip_whitespace
from citelens.source.line_index import LineIndex
from citelens.source.text_scan import contains

Layout = Literal["jsonl", "array", "object", "empty", "table"]  # table: a TSV or TREC file, no reports

_INFINITIES = (math.inf, -math.inf)
MAX_ENCODING_PROBLEMS = 10
_BLANK = re.compile(r"[ \t\n\r]*\Z")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


@dataclass(slots=True)
class TextProblem:
    """Something wrong below the JSON level: undecodable bytes, a NUL."""

    code: str
    message: str
    start: int
    end: int


class _LineDecoder:
    """`json.loads` with the hooks that notice what the fast path cannot keep (duplicate
    keys, NaN/Infinity, float overflow), built once per file rather than once per line
    (`json.loads(**hooks)` makes a new decoder per call). One per read, so thread-safe."""

    __slots__ = ("_decode", "dupes", "nonfinite")

    def __init__(self) -> None:
        self.dupes = self.nonfinite = False
        self._decode = json.JSONDecoder(
            object_pairs_hook=self._pairs, parse_constant=self._constant, parse_float=self._finite
        ).decode

    def _pairs(self, kv: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(kv)
        if len(d) != len(kv):
            self.dupes = True
        return d

    def _constant(self, name: str) -> float:
        self.nonfinite = True
        return float(name)

    def _finite(self, literal: str) -> float:
        value = float(literal)
        if value in _INFINITIES:  # a literal beyond the double range, e.g. 1e400
            self.nonfinite = True
        return value

    def decode(self, line: str) -> Any:
        """The value; `dupes`/`nonfinite` tell whether the line needs the slow path."""
        self.dupes = self.nonfinite = False
        if line.startswith("\ufeff"):  # json.loads refuses a BOM; so must we
            raise ValueError("unexpected byte-order mark")
        return self._decode(line)


@dataclass(slots=True)
class Item:
    index: int  # 0-based position of the report in the file
    start: int  # span of the item's text in the file
    end: int
    value: Any = None
    syntax: JsonSyntaxError | None = None  # offset is absolute
    problems: list[ValueProblem] = field(default_factory=list)
    _node: Node | None = None
    pending: bool = False  # located but not decoded yet (see read_source(lazy=True))

    @property
    def ok(self) -> bool:
        return self.syntax is None

    def decoded(self, text: str) -> Item:
        """This item with its value read (itself when it already is)."""
        return _fast_item(text, self.index, self.start, self.end) if self.pending else self

    def node(self, text: str) -> Node:
        if self._node is None:
            self._node = parse(text, self.start, self.end).node
        return self._node


def decode(data: bytes) -> tuple[str, list[TextProblem]]:
    """UTF-8 text (BOM dropped); each undecodable byte run becomes U+FFFD plus a problem.
    A UTF-16 or UTF-32 file is one problem saying so, and no text."""
    wide = wide_encoding(data)
    if wide is not None:
        return "", [TextProblem("encoding", f"the file is {wide} text; {EXPECTED}, saved as UTF-8", 0, 1)]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    parts: list[str] = []
    problems: list[TextProblem] = []
    length, pos = 0, 0
    while pos < len(data):
        try:
            chunk = data[pos:].decode("utf-8")
            parts.append(chunk)
            break
        except UnicodeDecodeError as exc:
            good = data[pos : pos + exc.start].decode("utf-8")
            parts.append(good)
            length += len(good)
            bad = data[pos + exc.start : pos + exc.end]
            problems.append(
                TextProblem(
                    "encoding",
                    f"bytes {bad.hex(' ')} are not valid UTF-8; save the file as UTF-8",
                    length,
                    length + 1,
                )
            )
            parts.append("\ufffd")
            length += 1
            pos += exc.end
    if len(problems) > MAX_ENCODING_PROBLEMS:  # a binary file: say so once, not a thousand times
        rest = problems[MAX_ENCODING_PROBLEMS]
        more = len(problems) - MAX_ENCODING_PROBLEMS
        problems = problems[:MAX_ENCODING_PROBLEMS] + [
            TextProblem(
                "encoding",
                f"{more} more undecodable byte runs from here on; is this a binary file?",
                rest.start,
                rest.end,
            )
        ]
    return "".join(parts), problems


def nul_problems(text: str) -> list[TextProblem]:
    if not contains(text, "\x00"):  # the usual case, without a Python-level scan
        return []
    found = [m.start() for m in re.finditer("\x00", text)]
    out = [
        TextProblem(
            "encoding", "NUL byte (U+0000) in the file; report files are plain UTF-8 text", at, at + 1
        )
        for at in found[:MAX_ENCODING_PROBLEMS]
    ]
    if len(found) > MAX_ENCODING_PROBLEMS:
        at = found[MAX_ENCODING_PROBLEMS]
        out.append(
            TextProblem(
                "encoding", f"{len(found) - MAX_ENCODING_PROBLEMS} more NUL bytes from here on", at, at + 1
            )
        )
    return out


def _fast_item(text: str, index: int, start: int, end: int, decoder: _LineDecoder | None = None) -> Item:
    decoder = decoder or _LineDecoder()
    item = Item(index, start, end)
    line = text[start:end]
    try:
        item.value = decoder.decode(line)
        if not (decoder.dupes or decoder.nonfinite or _needs_positions(line, item.value)):
            return item
    except (ValueError, RecursionError):
        pass
    return _slow_item(text, index, start, end)


def _needs_positions(line: str, value: Any) -> bool:
    """Whether a line `json.loads` read still holds what only the positioned parser
    reports: nesting beyond `MAX_DEPTH`, or a lone surrogate (`"\\ud800"`) in a string.
    Cheap text tests first; the value is walked only when they cannot rule it out."""
    # each level needs an opening and a closing bracket; substring tests run in C
    deep = len(line) > 2 * MAX_DEPTH and line.count("[") + line.count("{") > MAX_DEPTH
    lone = _SURROGATE_ESCAPE.search(line) is not None  # a regex scan beats `in` on non-ASCII text
    if not (deep or lone):
        return False
    depth, stack = 0, [(value, 1)]
    children: Iterable[Any]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            if lone and any(LONE_SURROGATE.search(k) for k in node):
                return True
            children = node.values()
        elif isinstance(node, list):
            children = node
        elif lone and isinstance(node, str) and LONE_SURROGATE.search(node):
            return True
        else:
            continue
        depth = max(depth, level)
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, level + 1) for child in children)
    return False


def _slow_item(text: str, index: int, start: int, end: int) -> Item:
    item = Item(index, start, end)
    try:
        parsed = parse(text, start, end)
    except JsonSyntaxError as exc:
        item.syntax = exc.plain()
        return item
    item.value, item.problems, item._node = parsed.value, parsed.problems, parsed.node
    return item


@dataclass
class SourceFile:
    text: str
    line_index: LineIndex
    layout: Layout
    items: list[Item]
    problems: list[TextProblem] = field(default_factory=list)
    syntax: JsonSyntaxError | None = None  # a syntax error outside any item (array files)


def _jsonl_items(text: str, lines: LineIndex, lazy: bool) -> list[Item]:
    items: list[Item] = []
    decoder = _LineDecoder()
    for n in range(lines.line_count):
        start, end = lines.starts[n], lines.line_end(n)
        if _BLANK.match(text, start, end):
            continue
        items.append(
            Item(len(items), start, end, pending=True)
            if lazy
            else _fast_item(text, len(items), start, end, decoder)
        )
    return items


_OBJECT_LINE = re.compile(r"^([ \t]*)\{", re.M)


def _resync(text: str, broken_at: int) -> int:
    """Start of the next report after a broken one: the next line opening an object at
    no deeper indentation than the broken report's own line (-1 if there is none)."""
    line_start = max(text.rfind("\n", 0, broken_at), text.rfind("\r", 0, broken_at)) + 1
    indent = broken_at - line_start
    for m in _OBJECT_LINE.finditer(text, broken_at + 1):
        if len(m.group(1)) <= indent:
            return m.end() - 1
    return -1


def _array_items(text: str, open_at: int) -> tuple[list[Item], JsonSyntaxError | None]:
    """Elements of a top-level array, parsed one by one so one bad element costs only itself."""
    items: list[Item] = []
    ws = skip_whitespace
    pos = ws(text, open_at + 1).end()
    if text.startswith("]", pos):
        tail = ws(text, pos + 1).end()
        return items, (
            None if tail == len(text) else JsonSyntaxError("unexpected text after the closing ']'", tail)
        )
    while True:
        try:
            parsed = parse(text, pos, trailing=True)
        except JsonSyntaxError as exc:
            # the span takes in the character the error is about: a checker caches
            # outcomes by the item's text, and the message names that character
            item = Item(len(items), pos, max(min(exc.offset + 1, len(text)), pos + 1), syntax=exc.plain())
            items.append(item)
            pos = _resync(text, pos)
            if pos < 0:
                return items, None
            continue
        value_end = parsed.node.end
        items.append(Item(len(items), pos, value_end, parsed.value, None, parsed.problems, parsed.node))
        pos = parsed.end
        ch = text[pos : pos + 1]
        if ch == ",":
            pos = ws(text, pos + 1).end()
            continue
        if ch == "]":
            tail = ws(text, pos + 1).end()
            return items, (
                None if tail == len(text) else JsonSyntaxError("unexpected text after the closing ']'", tail)
            )
        return items, JsonSyntaxError(
            f"expected ',' or ']' between reports, found {ch!r}"
            if ch
            else "the array of reports is not closed (missing ']')",
            pos,
        )


def read_source(text: str, problems: list[TextProblem] | None = None, *, lazy: bool = False) -> SourceFile:
    """Split decoded text into report items, choosing the layout from the content.

    `lazy`: JSON-lines items are only located, not decoded (`Item.decoded` does that
    later, possibly in another process)."""
    lines = LineIndex(text)
    problems = list(problems or []) + nul_problems(text)
    layout, first = detect_layout(text, lines)
    if layout == "empty":
        if not problems:  # a UTF-16 file already says why there is nothing to read
            what = "it is empty" if not text else "it has only blank lines"
            problems.append(
                TextProblem("json_syntax", f"the file holds no reports ({what}); {EXPECTED}", 0, 1)
            )
        return SourceFile(text, lines, "empty", [], problems)
    if layout == "table":
        kind = table_kind(text, first)
        assert kind is not None
        problems.append(TextProblem("json_syntax", kind.message, kind.start, kind.end))
        return SourceFile(text, lines, "table", [], problems)
    if layout == "array":
        items, syntax = _array_items(text, first)
        return SourceFile(text, lines, "array", items, problems, syntax)
    if layout == "object":
        end = len(text.rstrip(" \t\r\n"))
        return SourceFile(text, lines, "object", [_slow_item(text, 0, first, end)], problems)
    return SourceFile(text, lines, "jsonl", _jsonl_items(text, lines, lazy), problems)


def detect_layout(text: str, lines: LineIndex) -> tuple[Layout, int]:
    """The layout of the text and the offset of its first non-blank character. Reads
    only the first two non-blank lines, so an editor can re-decide it on every edit."""
    first = skip_whitespace(text, 0).end()
    if first == len(text):
        return "empty", first
    if table_kind(text, first) is not None:
        return "table", first
    line0 = lines.line_of(first)
    first_line = text[first : lines.line_end(line0)].rstrip()
    if text[first] == "[" and not (_is_json(first_line) and _next_line_is_json(text, lines, line0)):
        return "array", first
    if (
        text[first] == "{"
        and not _is_json(first_line)
        and not first_line.endswith("}")
        and not _next_line_is_json(text, lines, line0)
    ):
        # a pretty-printed report spread over several lines (not JSON lines whose first
        # line is broken: then the next line is a whole value by itself)
        return "object", first
    return "jsonl", first


def line_spans(text: str, lines: LineIndex, first_line: int, stop_line: int) -> list[tuple[int, int]]:
    """The spans of the non-blank lines in [first_line, stop_line): the JSON-lines
    items there (an editor re-reads only the lines an edit touched)."""
    out = []
    for n in range(first_line, stop_line):
        start, end = lines.starts[n], lines.line_end(n)
        if not _BLANK.match(text, start, end):
            out.append((start, end))
    return out


def read_item(text: str, index: int, start: int, end: int) -> Item:
    """One JSON-lines item read as `read_source` reads it."""
    return _fast_item(text, index, start, end)


def _is_json(line: str) -> bool:
    """Whether the line is one whole JSON value (one too deep to read counts, if its
    brackets balance: it is a JSON-lines report, not the start of a pretty-printed one)."""
    try:
        json.loads(line)
        return True
    except ValueError:
        return False
    except RecursionError:
        return line.count("[") + line.count("{") == line.count("]") + line.count("}")


def _next_line_is_json(text: str, lines: LineIndex, line0: int) -> bool:
    """Whether the next non-blank line after `line0` is a complete JSON value by itself
    (a JSON-lines file), which no line inside a pretty-printed value is, except a lone
    scalar or empty container."""
    for n in range(line0 + 1, lines.line_count):
        line = text[lines.starts[n] : lines.line_end(n)].strip()
        if line:
            return line[0] in "{[" and line[-1] in "}]" and _is_json(line)
    return False
