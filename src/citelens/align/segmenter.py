"""Sentence segmentation of sources and answers (the reference's simple rules).

A sentence ends after ``.``, ``?`` or ``!`` followed by whitespace or the end of the
text (a run of further ``.?!`` stays with it), after ``;``, and, for sources, at each
newline. A period after a common abbreviation (Dr., etc., e.g.) or after dotted
initials (U.S., p.m.) does not end a sentence. Segments are whitespace-trimmed.
Only the punctuation positions are visited, so long documents segment quickly.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.align.models import AnswerSpan, Segment

ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e"})

_MARKS_WITH_NEWLINES = re.compile(r"[\n;.?!]")
_MARKS = re.compile(r"[;.?!]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    if start >= end:
        return None
    piece = text[start:end]
    left = len(piece) - len(piece.lstrip())
    if left == len(piece):
        return None
    right = len(piece) - len(piece.rstrip())
    return start + left, end - right


def _after_abbreviation(text: str, dot: int) -> bool:
    begin = dot
    while begin > 0 and (text[begin - 1].isalpha() or text[begin - 1] == "."):
        begin -= 1
    word = text[begin:dot].casefold()
    if word in ABBREVIATIONS:
        return True
    parts = [part for part in word.split(".") if part]
    return len(parts) >= 2 and all(len(part) == 1 and part.isalpha() for part in parts)


def _ends_sentence(text: str, idx: int) -> bool:
    if text[idx] == "." and _after_abbreviation(text, idx):
        return False
    return idx + 1 >= len(text) or text[idx + 1].isspace()


def sentence_spans(text: str, *, split_on_newlines: bool = True) -> list[tuple[int, int]]:
    """Trimmed ``(start, end)`` spans of the sentences of ``text``."""
    spans: list[tuple[int, int]] = []
    start = 0
    resume = 0
    length = len(text)
    marks = _MARKS_WITH_NEWLINES if split_on_newlines else _MARKS
    for match in marks.finditer(text):
        idx = match.start()
        if idx < resume:
            continue
        char = text[idx]
        if char == "\n" or char == ";":
            cut = idx if char == "\n" else idx + 1
            span = _trimmed(text, start, cut)
            if span:
                spans.append(span)
            start = resume = idx + 1
        elif _ends_sentence(text, idx):
            end = idx + 1
            while end < length and text[end] in ".?!":
                end += 1
            span = _trimmed(text, start, end)
            if span:
                spans.append(span)
            start = resume = end
    span = _trimmed(text, start, length)
    if span:
        spans.append(span)
    return spans


class SimpleSegmenter:
    """Source segmenter object, shaped like cite-right's: ``segment(text)`` returns
    ``Segment`` models (text plus document offsets). The engine itself calls
    ``sentence_spans``, which skips building a model per sentence."""

    def __init__(self, split_on_newlines: bool = True) -> None:
        self.split_on_newlines = split_on_newlines

    def segment(self, text: str) -> list[Segment]:
        from citelens.align.models import Segment

        return [
            Segment.model_construct(text=text[start:end], doc_char_start=start, doc_char_end=end)
            for start, end in self.spans(text)
        ]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The same segmentation as plain ``(start, end)`` pairs."""
        return sentence_spans(text, split_on_newlines=self.split_on_newlines)


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Trimmed paragraph spans; paragraphs are separated by a blank line."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        span = _trimmed(text, start, match.start())
        if span:
            spans.append(span)
        start = match.end()
    span = _trimmed(text, start, len(text))
    if span:
        spans.append(span)
    return spans


class SimpleAnswerSegmenter:
    """Answer segmenter: paragraphs on blank lines, then sentences (newlines do not split)."""

    def segment(self, text: str) -> list[AnswerSpan]:
        from citelens.align.models import AnswerSpan

        spans = []
        sentence_index = 0
        for paragraph_index, (p_start, p_end) in enumerate(paragraph_spans(text)):
            paragraph = text[p_start:p_end]
            for s_start, s_end in sentence_spans(paragraph, split_on_newlines=False):
                spans.append(
                    AnswerSpan.model_construct(
                        text=paragraph[s_start:s_end],
                        char_start=p_start + s_start,
                        char_end=p_start + s_end,
                        kind="sentence",
                        paragraph_index=paragraph_index,
                        sentence_index=sentence_index,
                    )
                )
                sentence_index += 1
        return spans
