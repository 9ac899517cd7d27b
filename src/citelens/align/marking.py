"""Evidence with the answer's words marked: the runs of words of a passage that also
occur in the sentence citing it (what `citelens align` paints and a hover makes bold)."""

from __future__ import annotations

from collections.abc import Callable

from citelens.align.tokenizer import normalize_token, token_spans

#: characters that may sit between two marked words without ending the marked run
JOINERS = " ,;:-'\u2019\"()"


def answer_words(sentence: str) -> set[str]:
    """The normalised words of a sentence (what evidence words are compared with)."""
    return {normalize_token(sentence[s:e]) for s, e in token_spans(sentence)}


def mark_matches(evidence: str, words: set[str], matched: Callable[[str], str]) -> str:
    """The evidence with runs of words that also occur in `words` passed through
    `matched` (a colour, brackets, sentinels), whitespace folded to single spaces."""
    runs: list[list[int]] = []
    for start, end in token_spans(evidence):
        if normalize_token(evidence[start:end]) not in words:
            continue
        if runs and not evidence[runs[-1][1] : start].strip(JOINERS):
            runs[-1][1] = end
        else:
            runs.append([start, end])
    out, pos = [], 0
    for start, end in runs:
        out.append(evidence[pos:start])
        out.append(matched(evidence[start:end]))
        pos = end
    out.append(evidence[pos:])
    return " ".join("".join(out).split())
