"""A document prepared once for many sentences: its passages, terms and a term index."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from citelens.align.segmenter import sentence_spans
from citelens.support.cache import text_hash
from citelens.support.language import SCRIPT_DEFAULT_LANGUAGE, LanguageGuess, guess_language
from citelens.support.settings import SupportSettings
from citelens.support.terms import Term, extract_terms

# bucket widths of the prefix / suffix indexes: the smallest min_prefix_match and
# min_suffix_match they can serve (smaller settings fall back to a scan)
PREFIX_BUCKET = 5
SUFFIX_BUCKET = 4


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    text: str
    guess: LanguageGuess
    terms: tuple[Term, ...]
    passage_of_term: tuple[int, ...]  # passage index of each term
    passages: tuple[tuple[int, int], ...]
    postings: dict[str, tuple[int, ...]]  # content key -> indices into ``terms``
    content_terms: int
    by_prefix: dict[str, tuple[str, ...]]  # first 5 characters -> content keys (prefix matches)
    by_suffix: dict[str, tuple[str, ...]]  # last 4 characters -> content keys (compound heads)
    spread: dict[str, int]  # content key -> how many passages hold it (topic words: many)

    def topical(self, key: str, share: float) -> bool:
        """Whether a document key is one of the document's topic words: in at least two
        of its passages and in at least ``share`` of them (judge: topic words are no
        evidence of a claim)."""
        return self.spread.get(key, 0) >= max(2, math.ceil(share * len(self.passages)))


def prepare(text: str, settings: SupportSettings) -> PreparedDocument:
    guess = guess_language(text[: settings.language_sample_chars], settings)
    language = guess.language or SCRIPT_DEFAULT_LANGUAGE.get(guess.script or "")
    passages = sentence_spans(text) or [(0, len(text))]
    terms = extract_terms(text, language)
    passage_of_term = []
    p = 0
    for term in terms:
        while p + 1 < len(passages) and term.start >= passages[p][1]:
            p += 1
        passage_of_term.append(p)
    postings: dict[str, list[int]] = {}
    for i, term in enumerate(terms):
        if term.content:
            postings.setdefault(term.key, []).append(i)
    by_prefix: dict[str, list[str]] = {}
    by_suffix: dict[str, list[str]] = {}
    for key in postings:
        if not key.startswith("#"):
            by_prefix.setdefault(key[:PREFIX_BUCKET], []).append(key)
            by_suffix.setdefault(key[-SUFFIX_BUCKET:], []).append(key)
    spread = {k: len({passage_of_term[i] for i in v}) for k, v in postings.items()}
    return PreparedDocument(
        text=text,
        guess=LanguageGuess(guess.script, language, guess.confident),
        terms=tuple(terms),
        passage_of_term=tuple(passage_of_term),
        passages=tuple(passages),
        postings={k: tuple(v) for k, v in postings.items()},
        content_terms=sum(1 for t in terms if t.content),
        by_prefix={k: tuple(v) for k, v in by_prefix.items()},
        by_suffix={k: tuple(v) for k, v in by_suffix.items()},
        spread=spread,
    )


class PreparedDocuments:
    """A small LRU of prepared documents keyed by text hash (a run cites the same few often)."""

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._items: OrderedDict[tuple[str, int], PreparedDocument] = OrderedDict()

    def get(self, text: str, settings: SupportSettings) -> PreparedDocument:
        key = (text_hash(text), settings.language_sample_chars)
        doc = self._items.get(key)
        if doc is None:
            doc = prepare(text, settings)
            self._items[key] = doc
            if len(self._items) > self.capacity:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return doc
