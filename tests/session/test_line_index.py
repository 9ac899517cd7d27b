"""The one offset converter: code points <-> (line, character) in UTF-8/16/32 units,
checked against what the encoders count, on the texts that break naive converters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.align import OffsetMap
from citelens.source.line_index import LineIndex

TRICKY = [
    'a😀b\n{"x": "😀😀"}\n',  # astral: 2 UTF-16 units, 4 UTF-8 bytes
    "中文字\r\n報告\r\n",  # CJK (3 UTF-8 bytes) with CRLF
    "one\rtwo\rthree",  # lone CR breaks lines
    '{"t": "a\u2028b"}\n{"u": 1}',  # raw U+2028 is NOT a line break
    "\r\n\r\n\n\r",
    "",
    "end with break\n",
]
ENCODINGS = {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}
UNIT = {"utf-8": 1, "utf-16": 2, "utf-32": 4}


def lsp_lines(text: str) -> list[str]:
    """Lines as LSP clients count them: split at \\r\\n, \\r and \\n only."""
    out, line, i = [], "", 0
    while i < len(text):
        ch = text[i]
        if ch in "\r\n":
            out.append(line)
            line = ""
            i += 2 if text.startswith("\r\n", i) else 1
            continue
        line += ch
        i += 1
    out.append(line)
    return out


def expected_position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    lines = lsp_lines(text)
    consumed = 0
    for n, line in enumerate(lines):
        # where this line starts: the text before it, with its breaks
        start = consumed
        if offset <= start + len(line):
            units = len(text[start:offset].encode(ENCODINGS[encoding])) // UNIT[encoding]
            return n, units
        consumed = start + len(line)
        consumed += 2 if text.startswith("\r\n", consumed) else 1
        if offset < consumed:  # inside a \r\n: the position of the \n is the line end
            units = len(text[start:offset].encode(ENCODINGS[encoding])) // UNIT[encoding]
            return n, units
    raise AssertionError("offset past the end")


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_positions_match_the_encoders_and_round_trip(text, encoding):
    index = LineIndex(text)
    assert index.line_count == len(lsp_lines(text))
    for offset in range(len(text) + 1):
        line, character = index.position(offset, encoding)
        assert (line, character) == expected_position(text, offset, encoding)
        back = index.offset_at(line, character, encoding)
        # a position inside a \r\n maps to the line end, which is the \r
        assert back == offset or (text[back : offset + 1] == "\r\n" and back == offset - 1)


def test_u2028_stays_inside_its_line():
    text = '{"t": "a\u2028b"}\nnext'
    index = LineIndex(text)
    assert index.line_count == 2
    assert index.position(text.index("b"), "utf-16") == (0, text.index("b"))
    assert index.position(text.index("next")) == (1, 0)


def test_emoji_columns_in_utf16_and_utf8():
    text = "x😀y"
    index = LineIndex(text)
    assert index.position(2, "utf-16") == (0, 3)
    assert index.position(2, "utf-8") == (0, 5)
    assert index.offset_at(0, 3, "utf-16") == 2
    assert index.offset_at(0, 2, "utf-16") == 2  # inside the surrogate pair: after the emoji
    assert index.offset_at(0, 2, "utf-8") == 2  # inside the 4 bytes: after it


def test_offsets_past_the_line_or_the_text_clamp_like_lsp():
    text = "ab\r\ncd"
    index = LineIndex(text)
    assert index.offset_at(0, 99, "utf-16") == 2  # never into the line break
    assert index.offset_at(7, 0) == len(text)
    assert index.offset_at(-1, 5) == 0
    assert index.position(99) == (1, 2)


def test_the_alignment_offsets_use_the_same_counts():
    for text in TRICKY:
        m = OffsetMap(text)
        for offset in range(len(text) + 1):
            assert m.utf16(offset) == len(text[:offset].encode("utf-16-le")) // 2
            assert m.utf8(offset) == len(text[:offset].encode("utf-8"))


PIECES = st.sampled_from(["a", "{", '"', "\n", "\r", "\r\n", "😀", "中", "\u2028", " ", "xyz\n"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(PIECES, max_size=20).map("".join),
    st.lists(
        st.tuples(st.integers(0, 40), st.integers(0, 6), st.lists(PIECES, max_size=4).map("".join)),
        max_size=6,
    ),
)
def test_an_edited_index_equals_a_fresh_one(text, edits):
    index = LineIndex(text)
    for at, length, new in edits:
        start = min(at, len(index.text))
        end = min(start + length, len(index.text))
        index = index.edited(start, end, new)
        fresh = LineIndex(index.text)
        assert index.starts == fresh.starts
