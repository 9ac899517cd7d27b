"""Word, number and symbol tokens with character offsets, matching the reference tokenizer.

Every character is first mapped to a one-letter class (digit, word, combining mark,
inner punctuation, number separator, currency/percent symbol, other) after NFKC,
casefolding and quote/dash folding; one regular expression over that class string
then finds the tokens. The class string has the same length as the text, so the
regex offsets are the text's code point offsets. This keeps the Python reference's
per-character rules while doing the scanning in C.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from itertools import accumulate
from typing import cast

_PUNCTUATION_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u02bc": "'",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2212": "-",
    }
)
_SYMBOLS = frozenset({"%", "$", "€", "£"})
_SYMBOL_WORDS = {"%": "percent", "$": "dollar", "€": "euro", "£": "pound"}

# D digit, W other alphanumeric, M combining mark, ' inner punctuation (apostrophe
# or hyphen), . number separator, % symbol token, space for everything else.
_TOKEN_RE = re.compile(r"D+(?:\.D+)*|%|W[WDM]*(?:(?<=[WD])'[WD][WDM]*)*")
_TOKEN_SPLIT = re.compile("(" + _TOKEN_RE.pattern + ")")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().translate(_PUNCTUATION_FOLD)


def _char_class(char: str) -> str:
    folded = _fold(char)
    if folded.isdigit():
        return "D"
    if folded in _SYMBOLS:
        return "%"
    if folded.isalnum():
        return "W"
    if unicodedata.combining(char):
        return "M"
    if char.translate(_PUNCTUATION_FOLD) in ("'", "-"):
        return "'"
    if folded in (".", ","):
        return "."
    return " "


_ASCII_CLASSES: dict[int, str] = {code: _char_class(chr(code)) for code in range(128)}
_CLASS_CACHE: dict[int, str] = dict(_ASCII_CLASSES)


def class_string(text: str) -> str:
    """The per-character class string of ``text`` (same length, same offsets)."""
    if text.isascii():
        return text.translate(_ASCII_CLASSES)
    cache = _CLASS_CACHE
    for char in set(text):
        code = ord(char)
        if code not in cache:
            cache[code] = _char_class(char)
    return text.translate(cache)


def token_spans(text: str) -> list[tuple[int, int]]:
    """Half-open code point spans of the tokens of ``text``, in order."""
    return [m.span() for m in _TOKEN_RE.finditer(class_string(text))]


def normalize_token(raw: str) -> str:
    """The matching form of a raw token: folded, number commas dropped, symbols spelled out."""
    folded = raw.lower() if raw.isascii() else _fold(raw)  # NFKC and casefold are lower() on ASCII
    if folded and folded[0].isdigit():
        folded = folded.replace(",", "")
    return _SYMBOL_WORDS.get(folded, folded)


@dataclass(frozen=True, slots=True)
class TokenizedText:
    """Token ids and their spans in ``text``."""

    text: str
    token_ids: list[int]
    token_spans: list[tuple[int, int]]


class Vocabulary:
    """Normalized token -> id, ids from 1 in order of first appearance.

    One vocabulary is shared by all prepared documents of the process so that cached
    documents can be combined into any corpus; it only grows.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self._raw: dict[str, int] = {}  # raw token text -> id (skips re-normalising)
        self._lock = threading.Lock()  # new ids must be unique even with threads

    def __len__(self) -> int:
        return len(self.ids)

    def id_of(self, raw: str) -> int:
        """The id of raw token text, adding its normalized form if it is new (0: no token)."""
        token_id = self._raw.get(raw)
        if token_id is None:
            normalized = normalize_token(raw)
            if not normalized:
                token_id = 0
            else:
                token_id = self.ids.get(normalized)
                if token_id is None:
                    with self._lock:
                        token_id = self.ids.get(normalized)
                        if token_id is None:
                            token_id = len(self.ids) + 1
                            self.ids[normalized] = token_id
            if len(self._raw) < 1_000_000:
                self._raw[raw] = token_id
        return token_id

    def tokenize_bounds(self, text: str) -> tuple[list[int], list[int], list[int]]:
        """Ids, start offsets and end offsets of the tokens of ``text``.

        Splitting the class string around the tokens and summing piece lengths gives all
        offsets without a Python-level step per regex match (documents are long).
        """
        pieces = _TOKEN_SPLIT.split(class_string(text))
        bounds = list(accumulate(map(len, pieces)))
        starts = bounds[0:-1:2]
        ends = bounds[1::2]
        raws = list(map(text.__getitem__, map(slice, starts, ends)))
        ids = list(map(self._raw.get, raws))
        if None in ids:
            id_of = self.id_of
            ids = [i if i is not None else id_of(r) for i, r in zip(ids, raws)]
        if 0 in ids:  # tokens that normalize to nothing are dropped
            keep = [k for k, i in enumerate(ids) if i]
            ids = [ids[k] for k in keep]
            starts = [starts[k] for k in keep]
            ends = [ends[k] for k in keep]
        return cast("list[int]", ids), starts, ends  # no None left: every raw token has an id

    def tokenize_spans(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Ids and ``(start, end)`` spans of the tokens of ``text``."""
        ids, starts, ends = self.tokenize_bounds(text)
        return ids, list(zip(starts, ends))

    def clear_cache(self) -> None:
        """Forget the raw-text shortcut (ids stay stable)."""
        self._raw.clear()


class Tokenizer:
    """The default tokenizer: rules of the reference's ``SimpleTokenizer``."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary if vocabulary is not None else Vocabulary()

    @property
    def _vocab(self) -> dict[str, int]:
        # The reference maps stopwords through a ``_vocab`` attribute; keep the name.
        return self.vocabulary.ids

    def tokenize(self, text: str) -> TokenizedText:
        ids, spans = self.vocabulary.tokenize_spans(text)
        return TokenizedText(text, ids, spans)


SHARED_VOCABULARY = Vocabulary()
