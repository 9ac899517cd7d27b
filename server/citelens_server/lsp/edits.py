"""Engine edits (code-point spans) -> LSP `WorkspaceEdit`s in the negotiated encoding."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens.source.line_index import LineIndex
from citelens_server.lsp.positions import Encoding, lsp_range

if TYPE_CHECKING:
    from citelens.session import Edit


def text_edits(index: LineIndex, edits: Iterable[Edit], encoding: Encoding) -> list[types.TextEdit]:
    return [
        types.TextEdit(range=lsp_range(index, e.start, e.end, encoding), new_text=e.new_text)
        for e in sorted(edits, key=lambda e: (e.start, e.end))
    ]


def workspace_edit(
    uri: str,
    version: int | None,
    index: LineIndex,
    edits: Iterable[Edit],
    encoding: Encoding,
    *,
    versioned: bool,
) -> types.WorkspaceEdit:
    """One edit of the document (so it undoes in one step); `versioned`: as a
    `TextDocumentEdit` naming the version (clients that take `documentChanges`)."""
    changes = text_edits(index, edits, encoding)
    if versioned:
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=ident, edits=list(changes))]
        )
    return types.WorkspaceEdit(changes={uri: changes})


def text_change(old: str, new: str) -> tuple[int, int, str]:
    """The one replacement turning `old` into `new`: (start, end in old, new text).
    Prefix and suffix are found by bisection over slice comparisons (C speed on big files)."""
    n = min(len(old), len(new))
    lo, hi = 0, n  # old[:lo] == new[:lo]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    start = lo
    lo, hi = 0, n - start  # common suffix length, not overlapping the prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid : len(old) - lo] == new[len(new) - mid : len(new) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return start, len(old) - lo, new[start : len(new) - lo]
