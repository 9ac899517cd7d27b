"""Whole-text scans made a piece at a time give the answers of the one-call scans they
replace (`char in text`, the line starts of `text.split("\\n")`), pieces cut anywhere."""

from __future__ import annotations

from itertools import accumulate

from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.source import text_scan
from citelens.source.line_index import LineIndex

texts = st.text(alphabet="ab\n\r\x00\u00e9\U0001f600", max_size=60)


@settings(max_examples=300, deadline=None)
@given(text=texts, piece=st.integers(min_value=1, max_value=9))
def test_pieces_answer_as_one_scan(text: str, piece: int) -> None:
    text_scan.PIECE = piece
    try:
        _answers_as_one_scan(text)
    finally:
        text_scan.PIECE = 1 << 20


def _answers_as_one_scan(text: str) -> None:
    whole = [0, *accumulate(len(line) + 1 for line in text.split("\n"))][:-1]
    assert text_scan.lf_line_starts(text) == whole
    for char in "\n\r\x00z":
        assert text_scan.contains(text, char) == (char in text)
    for start in range(len(text) + 1):
        assert "".join(text_scan.pieces(text, start, len(text))) == text[start:]
        assert "".join(text_scan.pieces(text, 0, start)) == text[:start]
    lines = LineIndex(text)
    for start, end in ((0, 0), (0, len(text)), (len(text) // 3, len(text) // 2)):
        edited = lines.edited(start, end, "x\ny")
        assert edited.text == text[:start] + "x\ny" + text[end:]
        assert edited.starts == LineIndex(edited.text).starts
    assert [lines.line_text(n) for n in range(lines.line_count)] == text.replace("\r\n", "\n").replace(
        "\r", "\n"
    ).split("\n")


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(texts, max_size=6), piece=st.integers(min_value=1, max_value=9))
def test_a_join_in_pieces_gives_the_one_join(parts: list[str], piece: int) -> None:
    text_scan.PIECE, text_scan.JOIN_PIECEWISE = piece, 0
    try:
        assert text_scan.joined(parts) == "".join(parts)
    finally:
        text_scan.PIECE, text_scan.JOIN_PIECEWISE = 1 << 20, 4 << 20


def test_an_edit_of_a_text_longer_than_a_piece_gives_the_whole_edited_text() -> None:
    text = "é\n" * (text_scan.JOIN_PIECEWISE // 2) + "ab\r\n" * 1000
    index = LineIndex(text).edited(5, 7, "xyz\n")
    assert index.text == text[:5] + "xyz\n" + text[7:]
    assert index.starts == LineIndex(index.text).starts
