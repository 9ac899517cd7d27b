"""A text with one range replaced, built by copying into a string of the final size
(`citelens.source.splice`), is the string slicing gives: same characters and the same
storage kind (CPython compares kinds before characters), for every kind of text and new
text, copied in pieces of any size, and owned by its caller alone."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.source import splice
from citelens.source.line_index import LineIndex, moved_span

# one character of each storage kind: ASCII, Latin-1, UCS-2, UCS-4
KINDS = "a\n\xe9\u0100\uff54\U0001f600"
texts = st.text(alphabet=KINDS, max_size=40)


@contextmanager
def small_texts_spliced() -> Iterator[None]:
    """The copy taken from the first character, in pieces of three characters."""
    kept = splice.SPLICE_FROM, splice.PIECE
    splice.SPLICE_FROM, splice.PIECE = 0, 3
    try:
        yield
    finally:
        splice.SPLICE_FROM, splice.PIECE = kept


@pytest.mark.skipif(splice._API is None, reason="CPython's string API only")
@settings(max_examples=400, deadline=None)
@given(old=texts, data=st.data(), new=texts)
def test_a_splice_is_the_sliced_text(old, data, new):
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    with small_texts_spliced():
        got = splice.spliced(old, start, end, new)
    want = old[:start] + new + old[end:]
    assert got == want
    assert sys.getsizeof(got) == sys.getsizeof(want)  # the same kind
    assert got.isascii() == want.isascii()
    if len(got) > 1 and got is not new and got is not old:  # (else shared: a part, or a short one)
        assert sys.getrefcount(got) == 2  # this frame's, and the call's argument


@pytest.mark.skipif(splice._API is None, reason="CPython's string API only")
def test_the_copy_is_taken_when_the_kind_is_known():
    old = "ab\u0100cd"
    assert splice._result_max(old, 1, 2, "") == 0xFFFF  # "b" removed: U+0100 remains
    assert splice._result_max(old, 0, 1, "\U0001f600") == 0x10FFFF
    assert splice._result_max("abc", 0, 3, "") == 0x7F
    assert splice._result_max(old, 2, 3, "\u0101") == 0xFFFF  # replaced by one as wide
    # the only character that wide might go: unknown without a scan, so the plain join
    assert splice._result_max(old, 2, 3, "") is None
    with small_texts_spliced():
        assert splice.spliced(old, 2, 3, "") == "abcd" and splice.spliced(old, 2, 3, "").isascii()


def test_a_long_text_is_spliced_as_sliced():
    old = ("x" * 99 + "\uff54\n") * 2000
    got = splice.spliced(old, 150, 151, "y")
    assert got == old[:150] + "y" + old[151:]
    assert sys.getsizeof(got) == sys.getsizeof(old)


def test_an_edited_index_knows_the_edits_since_an_earlier_one():
    first = LineIndex("aa\nbb\ncc\n")
    second = first.edited(0, 1, "xyz")
    third = second.edited(4, 4, "\n")
    assert first.history == () and first.edits_since(first.serial) == []
    assert third.edits_since(first.serial) == [(0, 1, 3), (4, 4, 1)]
    assert third.edits_since(second.serial) == [(4, 4, 1)]
    assert second.edits_since(third.serial) is None  # a later index is not an earlier one
    assert third.edits_since(LineIndex(third.text).serial) is None  # nor another lineage


def test_an_index_remembers_the_last_edits_only():
    from citelens.source.line_index import HISTORY

    index = start = LineIndex("a\n")
    for _ in range(HISTORY + 1):
        index = index.edited(0, 0, "b")
    assert index.edits_since(start.serial) is None
    assert len(index.history) == HISTORY


@pytest.mark.parametrize(
    "edit, span",
    [
        ((0, 2, 5), (13, 23)),  # before: moved by the change in length
        ((30, 31, 0), (10, 20)),  # after
        ((9, 9, 1), (11, 21)),  # just before the first character
        ((10, 10, 1), None),  # at the first character
        ((5, 10, 0), None),  # reaching it
        ((20, 20, 1), None),  # at the end (the span's last line would grow)
        ((12, 14, 0), None),  # inside
    ],
)
def test_a_span_moves_with_the_edits_before_it_and_is_lost_to_one_touching_it(edit, span):
    assert moved_span(10, 20, [edit]) == span
    assert moved_span(10, 20, None) is None
