r"""`--diff` on a terminal: the changed tokens of each line with a little context.

A run file holds one report per line, often a thousand characters long; a unified diff
of a one-token fix repeats the whole line twice. This view shows, per changed line,
`path:LINE:COLUMN:` and only the changed stretch, `[-removed-]{+added+}` (as
`git diff --word-diff=plain` marks them, coloured on a terminal), with up to `CONTEXT`
characters either side. It is for reading; the unified diff (`--diff-format unified`,
the default when the output is not a terminal) is the one `patch -p1` applies.
"""

from __future__ import annotations

import difflib
import re

from citelens.cli.output.as_diff import _lines

#: characters of unchanged text shown either side of a change
CONTEXT = 30
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]", re.U)
_RED, _GREEN, _BOLD, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[1m", "\x1b[0m"


def _tokens(line: str) -> list[str]:
    return _TOKENS.findall(line)


def _shown(text: str) -> str:
    """A line's text on one terminal line: its line break dropped, control characters
    (a fix may add or remove `\r`) written as escapes."""
    text = text.rstrip("\n")
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode() for ch in text
    )


def _changed_line(old: str, new: str, color: bool) -> list[tuple[int, str]]:
    """(0-based column in `old`, rendered stretch) for each group of nearby changes."""
    a, b = _tokens(old.removesuffix("\n")), _tokens(new.removesuffix("\n"))
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    pieces: list[tuple[str, str, str, int]] = []  # (tag, old text, new text, old column)
    tag: str
    col = 0
    for tag, i1, i2, j1, j2 in ops:
        old_text, new_text = "".join(a[i1:i2]), "".join(b[j1:j2])
        pieces.append((tag, old_text, new_text, col))
        col += len(old_text)
    groups: list[list[int]] = []  # indices of changed pieces, joined when close
    for k, piece in enumerate(pieces):
        if piece[0] == "equal":
            continue
        if groups and k - groups[-1][-1] == 2 and len(pieces[k - 1][1]) <= 2 * CONTEXT:
            groups[-1].append(k)
        else:
            groups.append([k])
    out = []
    for group in groups:
        first, last = group[0], group[-1]
        before = pieces[first - 1][1] if first > 0 else ""
        after = pieces[last + 1][1] if last + 1 < len(pieces) else ""
        text = _shown("…" + before[-CONTEXT:] if len(before) > CONTEXT else before)
        inner = pieces[first : last + 1]
        kept = sum(len(p[1]) for p in inner if p[0] == "equal")
        changed = [p for p in inner if p[0] != "equal"]
        if len(changed) >= 3 and kept < sum(len(p[1]) + len(p[2]) for p in changed):
            # a rewrite with a few words in common: one removal and one addition read better
            inner = [("replace", "".join(p[1] for p in inner), "".join(p[2] for p in inner), 0)]
        for tag, old_text, new_text, _ in inner:
            if tag == "equal":
                text += _shown(old_text)
                continue
            if old_text:
                text += _mark("[-", _long(old_text), "-]", _RED, color)
            if new_text:
                text += _mark("{+", _long(new_text), "+}", _GREEN, color)
        text += _shown(after[:CONTEXT] + "…" if len(after) > CONTEXT else after)
        out.append((pieces[first][3], text))
    return out


def _mark(open_: str, text: str, close: str, style: str, color: bool) -> str:
    return f"{style}{open_}{text}{close}{_RESET}" if color else f"{open_}{text}{close}"


def render_token_diff(old: str, new: str, path: str, *, color: bool = False) -> str:
    """The changes from `old` to `new`: one `path:line:column: stretch` line per group of
    nearby changed tokens; whole lines removed or added are shown cut to a short prefix."""
    a, b = _lines(old), _lines(new)
    out = []
    where = f"{_BOLD}{path}{_RESET}" if color else path
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(paired):
            for col, stretch in _changed_line(a[i1 + k], b[j1 + k], color):
                out.append(f"{where}:{i1 + k + 1}:{col + 1}: {stretch}")
        for k in range(i1 + paired, i2):
            out.append(f"{where}:{k + 1}: line removed: " + _mark("[-", _cut(a[k]), "-]", _RED, color))
        for k in range(j1 + paired, j2):
            out.append(f"{where}:{k + 1}: line added: " + _mark("{+", _cut(b[k]), "+}", _GREEN, color))
    return "".join(line + "\n" for line in out)


#: a changed stretch longer than this is shown as its start and end
LONG = 100


def _long(text: str) -> str:
    """A long changed stretch as its first and last words and its length."""
    shown = _shown(text)
    if len(shown) <= LONG:
        return shown
    return f"{shown[:60]}…({len(text)} characters)…{shown[-20:]}"


def _cut(line: str) -> str:
    text = _shown(line)
    return text if len(text) <= 2 * CONTEXT else text[: 2 * CONTEXT] + "…"
