"""Sentence and paragraph segmentation of answers and sources."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.align.segmenter import SimpleAnswerSegmenter, sentence_spans


def sentences(text: str, **kw) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text, **kw)]


def test_answer_example_from_the_spec():
    answer = "Dr. Smith arrived at 3.5 p.m. today! Was it late? Yes; very.\n\n Second para. Ends here"
    spans = SimpleAnswerSegmenter().segment(answer)
    assert [s.text for s in spans] == [
        "Dr. Smith arrived at 3.5 p.m. today!",
        "Was it late?",
        "Yes;",
        "very.",
        "Second para.",
        "Ends here",
    ]
    assert [s.paragraph_index for s in spans] == [0, 0, 0, 0, 1, 1]
    assert [s.sentence_index for s in spans] == [0, 1, 2, 3, 4, 5]
    assert all(answer[s.char_start : s.char_end] == s.text for s in spans)


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Mr. and Mrs. Jones met Prof. X vs. Y etc. today.",
            ["Mr. and Mrs. Jones met Prof. X vs. Y etc. today."],
        ),
        ("He lives in the U.S. now. She does not.", ["He lives in the U.S. now.", "She does not."]),
        ("Use e.g. this. Or i.e. that.", ["Use e.g. this.", "Or i.e. that."]),
        ("Wait... what?! Really.", ["Wait...", "what?!", "Really."]),
        ("One; two;three", ["One;", "two;", "three"]),
        ("Version 3.5 shipped.Next", ["Version 3.5 shipped.Next"]),
        ("J. Smith wrote it.", ["J.", "Smith wrote it."]),
    ],
)
def test_sentence_rules(text, expected):
    assert sentences(text) == expected


def test_sources_split_at_newlines_answers_do_not():
    text = "field: value\nother: thing\n\nlast line"
    assert sentences(text) == ["field: value", "other: thing", "last line"]
    assert sentences(text, split_on_newlines=False) == [text]


def test_answer_paragraphs_need_a_blank_line():
    spans = SimpleAnswerSegmenter().segment("A line\nstill one.\n \t\nNew paragraph.")
    assert [(s.text, s.paragraph_index) for s in spans] == [("A line\nstill one.", 0), ("New paragraph.", 1)]


cite_right = pytest.importorskip("cite_right")
from cite_right.text.answer_segmenter import SimpleAnswerSegmenter as RefAnswerSegmenter  # noqa: E402
from cite_right.text.segmenter_simple import SimpleSegmenter as RefSegmenter  # noqa: E402

_PIECES = st.sampled_from(
    [
        "a",
        "B",
        " ",
        ".",
        "?",
        "!",
        ";",
        "\n",
        "\n\n",
        " \n\t\n",
        "Dr.",
        "e.g.",
        "U.S.",
        "p.m.",
        "...",
        "x1",
        "3.5",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_same_segments_as_the_reference(text):
    for newlines in (True, False):
        ref = [
            (s.doc_char_start, s.doc_char_end) for s in RefSegmenter(split_on_newlines=newlines).segment(text)
        ]
        assert sentence_spans(text, split_on_newlines=newlines) == ref
    ours = [
        (s.char_start, s.char_end, s.paragraph_index, s.sentence_index)
        for s in SimpleAnswerSegmenter().segment(text)
    ]
    ref = [
        (s.char_start, s.char_end, s.paragraph_index, s.sentence_index)
        for s in RefAnswerSegmenter().segment(text)
    ]
    assert ours == ref
