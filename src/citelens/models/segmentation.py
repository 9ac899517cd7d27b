"""Cutting text into paragraphs, line-sentences and length-limited chunks.

Plain string rules, no NLP library: a paragraph ends at a blank line, a "sentence" is one
non-blank line. This is the reference library's own rule for documents (it does not use
NLTK for splitting), so the pieces are identical; it never splits inside a line.
"""

from __future__ import annotations

import re

_BLANK_LINES = re.compile(r"\n\s*\n+")
_NEWLINES = re.compile(r"\n+")


def paragraphs(text: str) -> list[str]:
    """Non-empty, stripped paragraphs separated by one or more blank lines."""
    return [p.strip() for p in _BLANK_LINES.sub("\n\n", text).split("\n\n") if p.strip()]


def line_sentences(text: str) -> list[str]:
    """Non-empty, stripped lines; each line counts as one sentence."""
    return [s.strip() for s in _NEWLINES.sub("\n", text).split("\n") if s.strip()]


def length_limited_chunks(sentences: list[str], limit: int) -> list[str]:
    """Greedily pack sentences into newline-joined chunks of at most `limit` characters.

    Sentence lengths are summed without the joining newlines; a sentence longer than
    `limit` becomes a chunk of its own rather than being cut.
    """
    if not (isinstance(sentences, list) and all(isinstance(s, str) for s in sentences)):
        raise RuntimeError(f"expecting sentences list of string, but got {type(sentences)}: {sentences}")
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for sentence in sentences:
        if size + len(sentence) <= limit:
            current.append(sentence)
            size += len(sentence)
            continue
        if current:
            chunks.append("\n".join(current))
        current, size = [sentence], len(sentence)
    if current:
        chunks.append("\n".join(current))
    return chunks
