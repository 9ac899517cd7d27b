"""Untrusted text made literal Markdown: every syntax character is escaped exactly once
(a backslash before Markdown's, entities for HTML's three) and each run of line breaks
is one space, whatever the characters around them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citelens_server.lsp.markdown import escape, escape_marked

SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_[]|~#"}}
BREAKS = "\r\n\u2028\u2029\x85\v\f"


def _collapsed(text: str) -> list[str]:
    """`text` as pieces: one space per run of breaks, other characters as they are."""
    pieces: list[str] = []
    for c in text:
        if c in BREAKS:
            if not pieces or pieces[-1] != "\n":
                pieces.append("\n")
        else:
            pieces.append(c)
    return pieces


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab \\`*_[]|~#&<>;x\x00\x01\u00e9\U0001f600" + BREAKS, max_size=40))
def test_each_character_is_escaped_once(text: str) -> None:
    want = "".join(" " if c == "\n" else SPECIAL.get(c, c) for c in _collapsed(text))
    assert escape(text) == want


def test_marked_words_become_bold_and_the_rest_stays_literal() -> None:
    assert escape_marked("a \x00b_c\x01 <d>") == "a **b\\_c** &lt;d&gt;"
    assert escape("\\*") == "\\\\\\*"  # a backslash before a star: both shown
    assert escape("&lt;") == "&amp;lt;"  # an entity in the text is shown, not read
