"""A batch's changes converted through `BatchLines` land where converting each through
the edited line index would (emoji, CJK, CRLF, lone CR, raw U+2028, every encoding)."""

from __future__ import annotations

import random

import pytest

from citelens.source.line_index import LineIndex
from citelens_server.lsp.edits import text_change
from citelens_server.runtime.change_offsets import BatchLines

PIECES = ["😀", "漢字", "\r\n", "\r", "\n", "\u2028", "x", "", "é", "{", "ab\ncd"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("size", [60, 600])  # 600: edits far apart leave many segments
def test_batch_lines_agree_with_the_edited_index(encoding, seed, size) -> None:
    rng = random.Random(f"{encoding}-{seed}-{size}")
    text = "".join(rng.choice(PIECES) for _ in range(size))
    index = LineIndex(text)
    batch = BatchLines(index)
    for _ in range(80):
        line = rng.randrange(index.line_count + 1)
        character = rng.randrange(6)
        end_line = min(line + rng.choice([0, 0, 1]), index.line_count)
        end_character = rng.randrange(6)
        start = index.offset_at(line, character, encoding)
        end = index.offset_at(end_line, end_character, encoding)
        assert batch.line_count == index.line_count
        assert batch.offset_at(line, character, encoding) == start
        assert batch.offset_at(end_line, end_character, encoding) == end
        start, end = min(start, end), max(start, end)
        new = rng.choice(PIECES)
        batch.replace(start, end, new)
        index = index.edited(start, end, new)
        assert batch.text() == index.text
        start, end, new = batch.net_change()
        assert text[:start] + new + text[end:] == index.text


@pytest.mark.parametrize("seed", range(6))
def test_the_net_change_turns_the_old_text_into_the_new(seed) -> None:
    rng = random.Random(f"net-{seed}")
    old = "".join(rng.choice(PIECES) for _ in range(40))
    new = old
    for _ in range(rng.randrange(4)):
        at = rng.randrange(len(new) + 1)
        new = new[:at] + rng.choice(PIECES) + new[at + rng.randrange(3) :]
    start, end, text = text_change(old, new)
    assert old[:start] + text + old[end:] == new
    assert start <= end and (old != new or (start == end and text == ""))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("seed", range(4))
def test_keystrokes_inside_lines_agree_with_the_edited_index(encoding, seed) -> None:
    """Typing and deleting inside lines (no break written or removed), also emptying a line
    between a lone CR and an LF, which then become one break."""
    rng = random.Random(f"keys-{encoding}-{seed}")
    text = "".join(rng.choice(["ab", "\r", "\n", "\r\n", "é", "😀", "x"]) for _ in range(200))
    index = LineIndex(text)
    batch = BatchLines(index)
    for _ in range(300):
        line = rng.randrange(index.line_count)
        begin, content = index.starts[line], index.line_end(line) - index.starts[line]
        start = begin + rng.randrange(content + 1)
        end = min(start + rng.choice([0, 0, 1, 2, content]), begin + content)
        new = rng.choice(["", "", "y", "漢", "😀"])
        assert batch.offset_at(line, 0, encoding) == index.offset_at(line, 0, encoding)
        batch.replace(start, end, new)
        index = index.edited(start, end, new)
        assert batch.line_count == index.line_count
        assert batch.text() == index.text
        net_start, net_end, net = batch.net_change()
        assert text[:net_start] + net + text[net_end:] == index.text


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("seed", range(16))
def test_a_batch_of_keystrokes_is_one_replacement_of_its_lines(encoding, seed) -> None:
    """`line_batch`: changes on one line each, typed without a break, applied to their lines
    alone, give the text the edited index gives change by change; a batch that could move
    a line (a break typed, a range over lines, a line emptied after a lone CR) is left to
    `BatchLines` (None)."""
    from types import SimpleNamespace as NS

    from citelens_server.runtime.change_offsets import line_batch

    rng = random.Random(f"lines-{encoding}-{seed}")
    text = "".join(rng.choice(["ab", "\n", "\r\n", "é", "😀", "漢", "x", "\r"]) for _ in range(120))
    index, batch, refused = LineIndex(text), [], False
    for _ in range(rng.randrange(1, 40)):
        line = rng.randrange(index.line_count)
        units = len(index.line_text(line).encode("utf-16-le")) // 2 + 2  # sometimes past the end
        a = rng.randrange(units)
        b = min(a + rng.choice([0, 0, 1, 2]), units)
        new = rng.choice(["", "y", "漢", "😀", "", "\n"] if rng.random() < 0.1 else ["", "y", "漢", "😀"])
        end_line = line + (1 if rng.random() < 0.05 and line + 1 < index.line_count else 0)
        rng_ = NS(start=NS(line=line, character=a), end=NS(line=end_line, character=b))
        batch.append(NS(content_changes=[NS(range=rng_, text=new)]))
        start = index.offset_at(line, a, encoding)
        end = index.offset_at(end_line, b, encoding)
        refused |= "\n" in new or end_line != line
        index = index.edited(start, max(start, end), new)
    got = line_batch(LineIndex(text), batch, encoding)
    if refused:
        assert got is None
        return
    if got is None:  # only a line emptied after a lone CR may refuse a batch of keystrokes
        assert "\r" in text
        return
    start, end, new = got
    assert text[:start] + new + text[end:] == index.text
