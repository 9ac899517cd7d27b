"""Code-point offsets of a batch of incoming changes, each range read in the text the
changes before it leave, without building that whole text per change (a keystroke inside
one line rewrites that line alone).

`LineIndex.edited` joins the whole text for every change (about a millisecond on a
1.3 MB run), and even a list of the document's lines costs a millisecond to make: for a
batch of queued edits that was most of the cost. Here the text is the document's line
index plus the lines the changes rewrote; a change splices only the lines it touches and
re-splits them with the line index's breaks (`\\n`, `\\r\\n`, `\\r`), one line either side
included, so a `\\r` meeting a `\\n` is joined as the index joins it. At the end the batch
is one replacement of the lines it rewrote (`net_change`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Any

from citelens.source.line_index import LINE_BREAK, Encoding, LineIndex, offset_of_units


def _split(text: str) -> list[str]:
    """The lines of `text`, each with its break; the last one (maybe empty) without."""
    if "\r" not in text:  # the common case, split in C
        parts = text.split("\n")
        last = parts.pop()
        return [*(p + "\n" for p in parts), last]
    lines: list[str] = []
    at = 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[at : match.end()])
        at = match.end()
    lines.append(text[at:])
    return lines


def _content(line: str) -> str:
    if line.endswith("\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith(("\n", "\r")) else line


class _Lines:
    """Lines a change wrote (each with its break), with their length."""

    __slots__ = ("chars", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.chars = sum(map(len, lines))


#: the document's own lines [lo, hi), or lines the batch's changes wrote
Segment = tuple[int, int] | _Lines


class BatchLines:
    """The text of a document while a batch of changes is converted: runs of the
    document's own lines, referred to by number, and the lines the changes rewrote. A
    change costs the few segments made so far, not a copy of the document's lines."""

    def __init__(self, index: LineIndex) -> None:
        self.base, self.starts = index.text, index.starts
        self.line_count = len(index.starts)
        self._set([(0, len(index.starts))])

    def _set(self, segments: list[Segment]) -> None:
        """The segments, with the line and character each starts at (for bisection)."""
        self.segments = segments
        self._first_lines: list[int] = []
        self._first_chars: list[int] = []
        lines = chars = 0
        for seg in segments:
            self._first_lines.append(lines)
            self._first_chars.append(chars)
            n, c = self._measure(seg)
            lines += n
            chars += c
        self.chars = chars

    def _base_end(self, line: int) -> int:
        """Where the document's line `line` ends, its break included."""
        return self.starts[line + 1] if line + 1 < len(self.starts) else len(self.base)

    def _measure(self, seg: Segment) -> tuple[int, int]:
        """(lines, characters) of a segment."""
        if isinstance(seg, _Lines):
            return len(seg.lines), seg.chars
        lo, hi = seg
        return hi - lo, self._base_end(hi - 1) - self.starts[lo]

    def _text_of(self, seg: Segment) -> str:
        if isinstance(seg, _Lines):
            return "".join(seg.lines)
        return self.base[self.starts[seg[0]] : self._base_end(seg[1] - 1)]

    def _line(self, line: int) -> tuple[int, str]:
        """(offset of its start, its text with the break) of line `line` (< line_count)."""
        at = bisect_right(self._first_lines, line) - 1
        seg, k, chars_before = self.segments[at], line - self._first_lines[at], self._first_chars[at]
        if isinstance(seg, _Lines):
            return chars_before + sum(map(len, seg.lines[:k])), seg.lines[k]
        k += seg[0]
        start = chars_before + self.starts[k] - self.starts[seg[0]]
        return start, self.base[self.starts[k] : self._base_end(k)]

    def _line_at(self, offset: int) -> int:
        """The line whose span (break included) holds `offset`; the last one past the end."""
        if offset >= self.chars:
            return self.line_count - 1
        at = bisect_right(self._first_chars, offset) - 1
        seg, within = self.segments[at], offset - self._first_chars[at]
        if isinstance(seg, _Lines):
            return self._first_lines[at] + bisect_right(list(accumulate(map(len, seg.lines))), within)
        lo, hi = seg
        return self._first_lines[at] + bisect_right(self.starts, self.starts[lo] + within, lo, hi) - 1 - lo

    def offset_at(self, line: int, character: int, encoding: Encoding) -> int:
        """As `LineIndex.offset_at`, in the current text."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return self.chars
        start, text = self._line(line)
        content = _content(text)
        if encoding == "utf-32":
            within = min(max(character, 0), len(content))
        else:
            within = offset_of_units(content, character, encoding)
        return start + within

    def replace(self, start: int, end: int, text: str) -> None:
        """Replace [start, end) (code points of the current text) by `text`."""
        first, last = self._line_at(start), self._line_at(end)
        if (
            first == last
            and "\n" not in text
            and "\r" not in text
            and self._within_line(first, start, end, text)
        ):
            return
        lo, hi = max(first - 1, 0), min(last + 2, self.line_count)
        base = self._line(lo)[0]
        region = "".join(self._line(k)[1] for k in range(lo, hi))
        region = region[: start - base] + text + region[end - base :]
        pieces = _split(region)
        if hi < self.line_count:  # the region ends with a line's break, untouched
            pieces.pop()  # (an empty remainder: the next line follows it)
        self._splice(lo, hi, pieces)

    def _within_line(self, line: int, start: int, end: int, text: str) -> bool:
        """The common keystroke: [start, end) inside one line's content (its break not
        touched) replaced by text without a break, so no line starts or ends anywhere
        else; that line alone is rewritten, with no re-split of the lines around it.
        False (nothing changed) for any other edit."""
        begin, old = self._line(line)
        content = len(_content(old))
        # emptied, the line would let a `\r` before it meet the `\n` ending it
        if end > begin + content or content - (end - start) + len(text) == 0:
            return False
        new = old[: start - begin] + text + old[end - begin :]
        at = bisect_right(self._first_lines, line) - 1
        seg = self.segments[at]
        if not isinstance(seg, _Lines):
            self._splice(line, line + 1, [new])
            return True
        seg.lines[line - self._first_lines[at]] = new  # its own list (`_cut`, `_joined` copy)
        delta = len(new) - len(old)
        seg.chars += delta
        self.chars += delta
        chars = self._first_chars
        for k in range(at + 1, len(chars)):
            chars[k] += delta
        return True

    def _splice(self, lo: int, hi: int, pieces: list[str]) -> None:
        """Lines [lo, hi) become `pieces`."""
        before: list[Segment] = []
        after: list[Segment] = []
        at = 0
        for seg in self.segments:
            n = self._measure(seg)[0]
            seg_lo, seg_hi, at = at, at + n, at + n
            if seg_lo < lo:
                before.append(_cut(seg, 0, min(seg_hi, lo) - seg_lo))
            if seg_hi > hi:
                after.append(_cut(seg, max(hi - seg_lo, 0), n))
        self.line_count += len(pieces) - (hi - lo)
        self._set(_joined([*before, _Lines(pieces), *after]))

    def text(self) -> str:
        """The whole current text (joined: for tests and small documents)."""
        return "".join(map(self._text_of, self.segments))

    def net_change(self) -> tuple[int, int, str]:
        """(start, end, text): the one replacement of the document's text that the batch
        amounts to, spanning the lines it rewrote (not narrowed to the characters)."""
        segs = self.segments
        n = len(self.starts)
        first, last = 0, len(segs)
        start, end = 0, len(self.base)
        head, tail = segs[0], segs[-1]
        if not isinstance(head, _Lines) and head[0] == 0:
            if head[1] == n:  # nothing rewritten
                return len(self.base), len(self.base), ""
            start, first = self.starts[head[1]], 1
        if not isinstance(tail, _Lines) and tail[1] == n:
            end, last = self.starts[tail[0]], last - 1
        return start, end, "".join(self._text_of(seg) for seg in segs[first:last])


def _cut(seg: Segment, i: int, j: int) -> Segment:
    """Lines [i, j) of a segment."""
    if isinstance(seg, _Lines):
        return _Lines(seg.lines[i:j])
    return (seg[0] + i, seg[0] + j)


def _joined(segments: list[Segment]) -> list[Segment]:
    """Without empty segments, neighbouring written lines merged into one."""
    out: list[Segment] = []
    for seg in segments:
        if isinstance(seg, _Lines):
            if not seg.lines:
                continue
            if out and isinstance(out[-1], _Lines):
                out[-1] = _Lines(out[-1].lines + seg.lines)
                continue
        elif seg[0] >= seg[1]:
            continue
        out.append(seg)
    return out


def range_offsets(lines: BatchLines | LineIndex, rng: Any, encoding: Encoding) -> tuple[int, int]:
    """(start, end) offsets of an incoming lsprotocol `Range`; never reversed."""
    start = lines.offset_at(rng.start.line, rng.start.character, encoding)
    end = lines.offset_at(rng.end.line, rng.end.character, encoding)
    return (start, end) if start <= end else (end, start)


#: a character of two UTF-16 units
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _one_unit_each(line: str) -> bool:
    """Whether every character of `line` is one UTF-16 unit (none beyond U+FFFF): then a
    UTF-16 column is a code-point column, without encoding the line."""
    return line.isascii() or _ASTRAL.search(line) is None


def kept_line(change: Any) -> int | None:
    """The line an incoming change rewrites in place, when it keeps every line where it is
    (a range on one line, no line break typed); None when it may move lines (a whole-text
    change, a range over several lines, a break typed)."""
    rng = getattr(change, "range", None)
    if rng is None or rng.start.line != rng.end.line or "\n" in change.text or "\r" in change.text:
        return None
    return int(rng.start.line)


def line_batch(index: LineIndex, batch: list[Any], encoding: Encoding) -> tuple[int, int, str] | None:
    """The batch as one replacement (start, end, text) of the lines it touches, when every
    change keeps each line where it is (`kept_line`, on an existing line, no line emptied
    after a `\r` it could join): each change is applied to its line's text alone, a slice
    and a join of one line, with no index of the text between changes. A burst of
    keystrokes is nearly always this; None for any other batch (`BatchLines`)."""
    count, text, starts = index.line_count, index.text, index.starts
    lines: dict[int, str] = {}  # line -> its content (no break) after the changes so far
    units: dict[int, Encoding] = {}  # line -> how its columns count (utf-32: one a character)
    for params in batch:
        for change in params.content_changes:
            line = kept_line(change)
            if line is None or not 0 <= line < count:
                return None
            content = lines.get(line)
            if content is None:
                content = text[starts[line] : index.line_end(line)]
                units[line] = "utf-32" if encoding == "utf-16" and _one_unit_each(content) else encoding
            a = offset_of_units(content, change.range.start.character, units[line])
            b = offset_of_units(content, change.range.end.character, units[line])
            if a > b:  # reversed (applies() turns such a change down): the general path says so
                return None
            lines[line] = content[:a] + change.text + content[b:]
            if units[line] != encoding and not _one_unit_each(change.text):
                units[line] = encoding
    if not lines:
        return None
    for line, content in lines.items():
        if not content and line and text[starts[line] - 1] == "\r":
            return None  # an emptied line would let the `\r` before it meet its `\n`
    first, last = min(lines), max(lines)
    parts = []
    for line in range(first, last + 1):
        parts.append(lines[line] if line in lines else text[starts[line] : index.line_end(line)])
        if line < last:
            parts.append(text[index.line_end(line) : starts[line + 1]])  # its break, as it was
    return starts[first], index.line_end(last), "".join(parts)
