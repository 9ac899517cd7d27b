"""Untrusted text -> Markdown that shows it as text.

Report and document text may hold `<script>`, backticks, `|` tables, `*`, `#` headings or
link syntax; each is escaped so the client renders the characters, not the markup. Line
breaks of any kind become spaces (a hover paragraph is one line of prose per piece).
"""

from __future__ import annotations

import re
from typing import Protocol

_BREAKS = re.compile(r"[\r\n\u2028\u2029\x85\v\f]+")
#: HTML's three and Markdown's syntax characters, each escaped by one `str.replace` (C
#: passes; the backslash first, so the ones added after are not escaped again). A regex
#: substitution with a template ran Python per match, and doc ids are full of `_`.
_ESCAPES = (
    ("\\", "\\\\"),
    ("&", "&amp;"),
    ("<", "&lt;"),
    (">", "&gt;"),
    *((c, "\\" + c) for c in "`*_[]|~#"),
)
#: marks put around matched words before escaping, turned into bold afterwards
MARK_OPEN, MARK_CLOSE = "\x00", "\x01"


def escape(text: str) -> str:
    """`text` as literal Markdown: HTML and Markdown syntax shown, not interpreted."""
    text = _BREAKS.sub(" ", text)
    for char, escaped in _ESCAPES:
        if char in text:
            text = text.replace(char, escaped)
    return text


def escape_marked(text: str) -> str:
    """Like `escape`, with spans between MARK_OPEN/MARK_CLOSE made bold."""
    return escape(text).replace(MARK_OPEN, "**").replace(MARK_CLOSE, "**")


def plain(text: str) -> str:
    """Text for clients that only take plain text: marks become [[...]]."""
    return _BREAKS.sub(" ", text).replace(MARK_OPEN, "[[").replace(MARK_CLOSE, "]]")


def code(text: str) -> str:
    """An inline code span that holds any text (backticks inside get a longer fence)."""
    text = _BREAKS.sub(" ", text)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class Format(Protocol):
    """How hover text is written: `Markdown` or `PlainText`."""

    kind: str

    def text(self, s: str) -> str: ...
    def marked(self, s: str) -> str: ...
    def bold(self, s: str) -> str: ...
    def italic(self, s: str) -> str: ...
    def quote(self, s: str) -> str: ...
    def link(self, label: str, href: str) -> str: ...


class Markdown:
    """Formatting for clients that render Markdown: untrusted text escaped."""

    kind = "markdown"

    def text(self, s: str) -> str:
        return escape(s)

    def marked(self, s: str) -> str:
        return escape_marked(s)

    def bold(self, s: str) -> str:
        return f"**{s}**"

    def italic(self, s: str) -> str:
        return f"*{s}*"

    def quote(self, s: str) -> str:
        return f"> {s}"

    def link(self, label: str, href: str) -> str:
        return f"[{label}]({href})"


class PlainText:
    """The same pieces for plain-text clients: nothing to escape, marks as [[...]]."""

    kind = "plaintext"

    def text(self, s: str) -> str:
        return _BREAKS.sub(" ", s)

    def marked(self, s: str) -> str:
        return plain(s)

    def bold(self, s: str) -> str:
        return s

    def italic(self, s: str) -> str:
        return s

    def quote(self, s: str) -> str:
        return f"    {s}"

    def link(self, label: str, href: str) -> str:
        return f"{label}: {href}"
