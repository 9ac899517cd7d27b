"""Engine edits (code-point spans) -> LSP `WorkspaceEdit`s in the negotiated encoding."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lsprotocol import types

from citelens_server.positions import lsp_range
from citelens_server.server import CiteLensServer, _supports


def text_edits(ls: CiteLensServer, doc: Any, edits: Iterable[Any]) -> list[types.TextEdit]:
    index = doc.line_index
    return [
        types.TextEdit(range=lsp_range(index, e.start, e.end, ls.encoding), new_text=e.new_text)
        for e in sorted(edits, key=lambda e: (e.start, e.end))
    ]


def workspace_edit(ls: CiteLensServer, doc: Any, edits: Iterable[Any]) -> types.WorkspaceEdit:
    """One edit of the document (so it undoes in one step), versioned when the client can."""
    changes = text_edits(ls, doc, edits)
    if _supports(ls.client_capabilities, "workspace.workspace_edit.document_changes"):
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=ident, edits=changes)]
        )
    return types.WorkspaceEdit(changes={doc.uri: changes})


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
