"""The shapes of the pluggable parts a caller may hand to the aligner (duck-typed, as in
the reference): a tokenizer, a custom Smith-Waterman aligner and what it returns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class TokenizedLike(Protocol):
    """What a tokenizer returns: at least the token ids."""

    @property
    def token_ids(self) -> Sequence[int]: ...


class TextTokenizer(Protocol):
    """``Tokenizer`` or a caller's look-alike."""

    def tokenize(self, text: str) -> TokenizedLike: ...


class AlignmentLike(Protocol):
    """An alignment as a custom aligner reports it; query range, matches and match blocks
    are read when present."""

    @property
    def score(self) -> int: ...

    @property
    def token_start(self) -> int: ...

    @property
    def token_end(self) -> int: ...


class CustomAligner(Protocol):
    """A caller's aligner: ``align`` (and optionally ``align_batch``) as in the reference."""

    def align(self, seq1: Sequence[int], seq2: list[int]) -> AlignmentLike: ...
