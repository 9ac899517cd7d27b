"""JSON written back (fixes, conversions, --format json) survives a lone surrogate."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from citelens.source.json_text import UnwritableString, json_dumps

_text = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x1FFFF, exclude_categories=()), max_size=12
)
_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
_SPLIT_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


@given(_values)
@example({"\ud800\udc00": None})  # the two escapes read back as U+10000: once written as such
@example(["\ud800", "\udc00"])  # the halves in two strings are written apart
def test_any_decoded_value_is_written_as_utf8_and_reads_back_the_same(value):
    decoded = json.loads(json.dumps(value))  # what a reader of some JSON text holds
    text = json_dumps(decoded)
    assert json.loads(text.encode("utf-8")) == decoded


@given(_values)
@example({"\ud800\udc00": None})
@example({"a\udbff\udfffb": ["\udc00\ud800"]})
def test_any_value_is_written_to_read_back_the_same_or_refused_when_no_json_holds_it(value):
    unwritable = any(_SPLIT_PAIR.search(s) for s in _strings(value))
    if unwritable:
        with pytest.raises(UnwritableString):
            json_dumps(value)
    else:
        assert json.loads(json_dumps(value).encode("utf-8")) == value


def test_a_lone_surrogate_is_written_as_its_escape_and_other_text_stays_raw():
    value = {"text": "a \ud800 b", "k\udfff": "café 🐝"}
    assert json_dumps(value) == '{"text": "a \\ud800 b", "k\\udfff": "café 🐝"}'


def test_two_lone_halves_side_by_side_are_refused_with_the_character_they_would_become():
    with pytest.raises(UnwritableString, match=r"\\ud800 directly followed by a lone \\udc00.*U\+10000"):
        json_dumps({"\ud800\udc00": None})
