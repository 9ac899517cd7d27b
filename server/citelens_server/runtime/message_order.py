"""Which client message may be handled now while big ones are still being decoded.

Decoding a 50 MB `didOpen` takes the reader's thread most of a second; a hover on another
file sent right behind it would wait for all of it. So a big message is decoded in a
thread of its own while the reader goes on, and a later message may be handled before it
only when that changes nothing: both are about one document each, named, and not the same
one (a hover on `small.jsonl` may go ahead of the `didOpen` of `big.jsonl`; an edit or a
hover of `big.jsonl`, a settings change, `shutdown`, a response, wait). Every message
also keeps its place behind any earlier one still waiting that it may not pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: where a message names its document near the start of its JSON (`"textDocument":
#: {"uri": ...}`, as clients write `didOpen` and `didChange`): read from the first bytes
#: of a big body before it is decoded
HEAD_URI = re.compile(rb'"textDocument"\s*:\s*\{\s*"uri"\s*:\s*"((?:[^"\\]|\\.)*)"')
HEAD_BYTES = 4096


def head_uri(body: bytes | bytearray) -> str | None:
    """The document a big message is about, from its first bytes (None: not said there)."""
    match = HEAD_URI.search(body, 0, HEAD_BYTES)
    if match is None:
        return None
    import json

    try:
        uri = json.loads(b'"' + match.group(1) + b'"')
    except ValueError:
        return None
    return uri if isinstance(uri, str) else None


def value_uri(value: Any) -> str | None:
    """The document a decoded message is about (None: not one named document)."""
    params = value.get("params") if isinstance(value, dict) else None
    document = params.get("textDocument") if isinstance(params, dict) else None
    uri = document.get("uri") if isinstance(document, dict) else None
    return uri if isinstance(uri, str) else None


class MessageOrder:
    """On the event loop: messages numbered in arrival order (`seq`) are handed to
    `handle` as soon as the rule above lets them."""

    def __init__(self, handle: Callable[[Any], None]) -> None:
        self.handle = handle
        self.decoding: dict[int, str | None] = {}  # seq -> document of a big message being decoded
        self.waiting: list[tuple[int, str | None, Any]] = []  # decoded, not yet handled

    def expect(self, seq: int, uri: str | None) -> None:
        """A big message is being decoded (called before anything read after it arrives)."""
        self.decoding[seq] = uri

    def arrive(self, seq: int, uri: str | None, value: Any) -> None:
        self.decoding.pop(seq, None)
        self.waiting.append((seq, uri, value))
        self.waiting.sort(key=lambda w: w[0])
        self._release()

    def _release(self) -> None:
        blocked: list[tuple[int, str | None]] = []
        still: list[tuple[int, str | None, Any]] = []
        for item in list(self.waiting):
            seq, uri, value = item
            ahead = [(s, u) for s, u in self.decoding.items() if s < seq] + blocked
            if all(_passes(uri, other) for _, other in ahead):
                self.waiting.remove(item)
                self.handle(value)
            else:
                blocked.append((seq, uri))
                still.append(item)
        self.waiting = still


def _passes(uri: str | None, other: str | None) -> bool:
    return uri is not None and other is not None and uri != other
