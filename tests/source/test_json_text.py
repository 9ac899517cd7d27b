"""JSON written back (fixes, conversions, --format json) survives a lone surrogate."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from citelens.source.json_text import json_dumps

_text = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x1FFFF, exclude_categories=()), max_size=12
)
_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)


@given(_values)
def test_any_decoded_value_is_written_as_utf8_and_reads_back_the_same(value):
    text = json_dumps(value)
    assert json.loads(text.encode("utf-8")) == value


def test_a_lone_surrogate_is_written_as_its_escape_and_other_text_stays_raw():
    value = {"text": "a \ud800 b", "k\udfff": "café 🐝"}
    assert json_dumps(value) == '{"text": "a \\ud800 b", "k\\udfff": "café 🐝"}'
