"""What the start of a file looks like, in words that never quote it.

A message about a file that is not the kind expected (a topics file that is really
`/proc/self/environ`, a key, a binary) must not print its content: that would put
secrets into the terminal, the editor and CI logs. It says what was expected and what
the file looks like instead: binary or text, its size, and how its first line is shaped.
"""

from __future__ import annotations

_PROBE = 4096


def looks_binary(text: str) -> bool:
    """A NUL near the start, or more than a tenth of control characters (beyond tab and
    line breaks): a stray escape sequence in a text file does not make it binary."""
    head = text[:_PROBE]
    if "\x00" in head:
        return True
    controls = sum(1 for c in head if ord(c) < 32 and c not in "\t\n\r\f\v")
    return controls * 10 > len(head)


def describe_start(text: str) -> str:
    """'binary data, 1,234 characters' or 'text, 1,234 characters on 3 lines, ...'."""
    size = f"{len(text):,} character{'' if len(text) == 1 else 's'}"
    if looks_binary(text):
        return f"binary data ({size}, with NUL or control characters); its content is not shown"
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    first = text.lstrip().split("\n", 1)[0]
    shape = "its first line has no tab and does not start with { or [" if first else "it is blank"
    return f"text ({size} on {lines:,} line{'' if lines == 1 else 's'}; {shape}); its content is not shown"
