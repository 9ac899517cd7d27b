"""Tokenizer: the words, numbers and symbols an answer is matched on, with offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.align.tokenizer import Tokenizer, Vocabulary, normalize_token, token_spans


def words(text: str) -> list[str]:
    return [normalize_token(text[s:e]) for s, e in token_spans(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Revenue grew 15% in Q4.", ["revenue", "grew", "15", "percent", "in", "q4"]),
        (
            "It cost $1,000.50 or €5 or £3",
            ["it", "cost", "dollar", "1000.50", "or", "euro", "5", "or", "pound", "3"],
        ),
        ("3.5 p.m. on 1.2.3", ["3.5", "p", "m", "on", "1.2.3"]),
        ("Die Straße", ["die", "strasse"]),
        ("don\u2019t state-of-the-art COVID\u201319", ["don't", "state-of-the-art", "covid-19"]),
        ("well\u2014known business_stars", ["well", "known", "business", "stars"]),
        ("trailing- 'quoted' x-", ["trailing", "quoted", "x"]),
        ("\uff21\uff11 \u00b2 caf\u0065\u0301", ["a1", "2", "caf\u00e9"]),
        ("12abc abc12", ["12", "abc", "abc12"]),
    ],
)
def test_tokens_follow_the_reference_rules(text, expected):
    assert words(text) == expected


def test_spans_are_code_point_offsets_into_the_text():
    text = "\U0001f600 Na\u00efve \u00e9t\u00e9 1,5"
    spans = token_spans(text)
    assert [text[s:e] for s, e in spans] == ["Na\u00efve", "\u00e9t\u00e9", "1,5"]
    assert spans[0] == (2, 7)


def test_ids_follow_first_appearance_and_repeat_for_equal_forms():
    tok = Tokenizer(Vocabulary())
    out = tok.tokenize("The cat, THE Cat; the 1,000 and 1000")
    assert out.token_ids == [1, 2, 1, 2, 1, 3, 4, 3]
    assert tok._vocab == {"the": 1, "cat": 2, "1000": 3, "and": 4}


cite_right = pytest.importorskip("cite_right")
from cite_right.text.tokenizer import TokenizerConfig, _iter_token_spans, _normalize_token  # noqa: E402

_ALPHABET = st.sampled_from(
    list("aZ09 .,'-%$_;:!?\n")
    + [
        "\u20ac",
        "\u00a3",
        "\u00e9",
        "e\u0301",
        "\u2019",
        "\u2013",
        "\u2014",
        "\u00df",
        "\u00b2",
        "\u00bd",
        "\ufb01",
        "\uff21",
        "\uff11",
        "\uff0e",
        "\u0345",
        "\u00a0",
        "\u0130",
        "\u0663",
        "\u2212",
        "\u02bc",
        "\uff05",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join) | st.text(max_size=30))
def test_same_tokens_as_the_reference(text):
    assert token_spans(text) == _iter_token_spans(text)
    cfg = TokenizerConfig()
    for s, e in token_spans(text):
        assert normalize_token(text[s:e]) == _normalize_token(text[s:e], cfg)
