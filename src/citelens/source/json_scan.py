"""A JSON parser that keeps positions and never recurses.

It accepts exactly what `json.loads` accepts (so a line judged valid by the fast path is
valid here), records duplicate keys and non-portable numbers (NaN, Infinity, overflow)
instead of failing on them, and reports the first syntax error at its exact offset.
Nesting depth is bounded by an explicit stack, not by Python's recursion limit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from json.decoder import JSONDecodeError
from typing import Any, NoReturn, TypeAlias

from citelens.source.json_nodes import Member, Node
from citelens.source.json_speedups import scanstring, skip_whitespace

#: Deeper values are refused with a finding. autojudge-base cannot load a report nested
#: about 985 levels deep (a RecursionError in its command line; about 993 in-process,
#: depending on the call stack), so the limit sits well below that: every line the
#: reference cannot load for its depth gets an error here. Real reports nest < 10 deep.
MAX_DEPTH = 500

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
_CONSTANTS = (("true", True), ("false", False), ("null", None))
_NONFINITE = (("NaN", math.nan), ("Infinity", math.inf), ("-Infinity", -math.inf))
#: an open container while parsing: [node, its Python value (dict or list), the pending
#: key or None, that key's span, {key: span of its first occurrence}]; a list, mutated in
#: place, because the parser's inner loop is the hot path
Frame: TypeAlias = list[Any]
#: raises JsonSyntaxError(message, offset)
Fail: TypeAlias = Callable[[str, int], NoReturn]
#: a UTF-16 surrogate left alone in a decoded string (a pair decodes to one character)
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonSyntaxError(ValueError):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message, self.offset = message, offset

    def plain(self) -> JsonSyntaxError:
        """The same error without traceback or context, to keep: a caught one holds the
        parser's frames, and with them the whole text it was reading (an editor storing
        one per keystroke would keep every earlier version of the file alive)."""
        return JsonSyntaxError(self.message, self.offset)


@dataclass(slots=True)
class ValueProblem:
    """Valid for Python's json module but not portable JSON, or an ambiguous object."""

    kind: str  # "duplicate_key" | "nonfinite" | "overflow" | "surrogate"
    start: int
    end: int
    detail: str = ""
    first_key: tuple[int, int] | None = None  # duplicate_key: the earlier occurrence


@dataclass(slots=True)
class Parsed:
    node: Node
    value: object
    problems: list[ValueProblem] = field(default_factory=list)
    end: int = 0  # offset just past the value (and trailing whitespace)


def _describe(ch: str) -> str:
    if ch == "":
        return "end of input"
    if ord(ch) < 0x20 or ch == "\x7f":
        return f"control character U+{ord(ch):04X}"
    return repr(ch)


def parse(text: str, start: int = 0, end: int | None = None, *, trailing: bool = False) -> Parsed:
    """Parse one JSON value in text[start:end] (surrounding whitespace allowed).

    With `trailing`, stop after the value instead of requiring the end of the range
    (for reading the elements of a top-level array one by one)."""
    end = len(text) if end is None else end
    if start == 0 and end == len(text):
        return _parse(text, trailing)
    # parse a copy of just this range (slicing the whole text per item would be quadratic)
    try:
        parsed = _parse(text[start:end], trailing)
    except JsonSyntaxError as exc:
        raise JsonSyntaxError(exc.message, exc.offset + start) from None
    for node in parsed.node.walk():
        node.start += start
        node.end += start
        for m in node.members:
            m.key_start += start
            m.key_end += start
    for p in parsed.problems:
        p.start += start
        p.end += start
        if p.first_key is not None:
            p.first_key = (p.first_key[0] + start, p.first_key[1] + start)
    parsed.end += start
    return parsed


def _parse(s: str, trailing: bool) -> Parsed:
    end = len(s)
    problems: list[ValueProblem] = []
    pos = skip_whitespace(s, 0).end()

    stack: list[Frame] = []
    root: Node | None = None
    root_value: object = None

    def fail(msg: str, at: int) -> NoReturn:
        raise JsonSyntaxError(msg, at)

    def attach(node: Node, value: object) -> None:
        nonlocal root, root_value
        if not stack:
            root, root_value = node, value
            return
        frame = stack[-1]
        parent = frame[0]
        if parent.kind == "array":
            parent.items.append(node)
            frame[1].append(value)
        else:
            key, (ks, ke) = frame[2], frame[3]
            seen = frame[4]
            if key in seen:
                problems.append(ValueProblem("duplicate_key", ks, ke, key, seen[key]))
            seen[key] = (ks, ke)
            parent.members.append(Member(key, ks, ke, node))
            frame[1][key] = value
            frame[2] = None

    while True:
        pos = _read_value(s, pos, stack, attach, problems, fail)
        # after a value: close finished containers, or move on to the next element
        while True:
            pos = skip_whitespace(s, pos).end()
            if not stack:
                break
            frame = stack[-1]
            closer = "}" if frame[0].kind == "object" else "]"
            ch = s[pos : pos + 1]
            if ch == closer:
                stack.pop()
                frame[0].end = pos + 1
                attach(frame[0], frame[1])
                pos += 1
                continue
            if ch != ",":
                fail(f"expected ',' or '{closer}', found {_describe(ch)}", pos)
            pos = skip_whitespace(s, pos + 1).end()
            if frame[0].kind == "object":
                pos = _read_key(s, pos, frame, fail, problems)
            break
        if not stack:
            break
    if pos < end and not trailing:
        fail(f"unexpected {_describe(s[pos])} after the JSON value", pos)
    assert root is not None
    return Parsed(root, root_value, problems, pos)


def _read_value(
    s: str,
    pos: int,
    stack: list[Frame],
    attach: Callable[[Node, object], None],
    problems: list[ValueProblem],
    fail: Fail,
) -> int:
    """Read one value at pos; containers are opened (and empty ones closed) here."""
    value: str | float | None  # a scalar's Python value (bool and int are floats to mypy)
    while True:
        ch = s[pos : pos + 1]
        if ch == "{" or ch == "[":
            if len(stack) >= MAX_DEPTH:
                fail(f"nesting deeper than {MAX_DEPTH} levels", pos)
            node = Node("object" if ch == "{" else "array", pos, pos + 1)
            frame = [node, {} if ch == "{" else [], None, None, {}]
            stack.append(frame)
            pos = skip_whitespace(s, pos + 1).end()
            if s[pos : pos + 1] == ("}" if ch == "{" else "]"):
                stack.pop()
                node.end = pos + 1
                attach(node, frame[1])
                return pos + 1
            if ch == "{":
                pos = _read_key(s, pos, frame, fail, problems)
            continue  # read the first element
        if ch == '"':
            try:
                value, after = scanstring(s, pos + 1, True)
            except JSONDecodeError as exc:
                fail(_string_problem(s, exc), exc.pos)
            if LONE_SURROGATE.search(value):
                problems.append(ValueProblem("surrogate", pos, after, _lone(value)))
            attach(Node("string", pos, after, value), value)
            return after
        m = _NUMBER.match(s, pos)
        if m:
            lit = m.group()
            if m.group(1) or m.group(2):
                value = float(lit)
                if math.isinf(value):
                    problems.append(ValueProblem("overflow", pos, m.end(), lit))
            else:
                try:
                    value = int(lit)
                except ValueError:  # beyond int()'s digit limit
                    fail(f"integer with {len(lit)} digits is too large", pos)
            attach(Node("number", pos, m.end(), value), value)
            return m.end()
        for lit, value in _CONSTANTS:
            if s.startswith(lit, pos):
                attach(Node(lit, pos, pos + len(lit), value), value)
                return pos + len(lit)
        for lit, value in _NONFINITE:
            if s.startswith(lit, pos):
                problems.append(ValueProblem("nonfinite", pos, pos + len(lit), lit))
                attach(Node("number", pos, pos + len(lit), value), value)
                return pos + len(lit)
        fail(f"expected a JSON value, found {_describe(ch)}", pos)


def _lone(value: str) -> str:
    """The first lone surrogate of a string, as the JSON escape that wrote it."""
    return f"\\u{ord(LONE_SURROGATE.search(value).group()):04x}"  # type: ignore[union-attr]


def _read_key(s: str, pos: int, frame: Frame, fail: Fail, problems: list[ValueProblem]) -> int:
    if s[pos : pos + 1] != '"':
        fail(f"expected a quoted key, found {_describe(s[pos : pos + 1])}", pos)
    try:
        key, after = scanstring(s, pos + 1, True)
    except JSONDecodeError as exc:
        fail(_string_problem(s, exc), exc.pos)
    if LONE_SURROGATE.search(key):
        problems.append(ValueProblem("surrogate", pos, after, _lone(key)))
    frame[2], frame[3] = key, (pos, after)
    colon = skip_whitespace(s, after).end()
    if s[colon : colon + 1] != ":":
        fail(f"expected ':' after the key, found {_describe(s[colon : colon + 1])}", colon)
    return skip_whitespace(s, colon + 1).end()


def _string_problem(s: str, exc: JSONDecodeError) -> str:
    ch = s[exc.pos : exc.pos + 1]
    if exc.msg.startswith("Invalid control character"):
        return (
            f"raw {_describe(ch)} inside a string; write it escaped (\\u{ord(ch):04x})"
            if ch
            else "unterminated string"
        )
    if exc.msg.startswith("Unterminated string"):
        return "unterminated string (no closing quote on this line)"
    return exc.msg[0].lower() + exc.msg[1:]
