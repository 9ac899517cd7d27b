"""Navigation (go to a cited document is in cited_documents.py, the outline in
symbols.py): references of a doc id, inlay hints after rag24 index citations, folding
per report.

All of it reads the session's report items and sentences; nothing here knows a rule.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens_server.lsp.positions import lsp_range, range_offsets
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import OpenDocument

log = logging.getLogger("citelens_server")


def cited_doc_id(doc: OpenDocument, offset: int) -> str | None:
    """The doc id under `offset`: a citation's, or a `references` entry's."""
    citation = doc.citation_at(offset)
    if citation is not None:
        return citation.doc_id
    node = doc.node_at(offset)
    if node is not None and node.kind == "string" and node.pointer.startswith("/references/"):
        text = doc.text[node.start : node.end]
        try:
            value = json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    return None


def references(ls: CiteLensServer, params: types.ReferenceParams) -> list[types.Location] | None:
    at = ls.document_at(params)
    if at is None:
        return None
    doc, offset = at
    if ls.problem(doc) is not None:
        return []  # no spec to read the citations by
    doc_id = cited_doc_id(doc, offset)
    if doc_id is None:
        return None
    index, out = doc.line_index, []
    for item in doc.items:
        for sentence in doc.sentences(item.index):
            for c in sentence.citations:
                if c.doc_id == doc_id:
                    out.append(
                        types.Location(uri=doc.uri, range=lsp_range(index, c.start, c.end, ls.encoding))
                    )
    return out


def inlay_hints(ls: CiteLensServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    doc = ls.document(params.text_document.uri)
    if doc is None or not ls.editor.inlay_hints or ls.problem(doc) is not None:
        return []
    start, end = range_offsets(doc.line_index, params.range, ls.encoding)
    hints = []
    for item in doc.items:
        if item.end < start or item.start > end:
            continue
        for sentence in doc.sentences(item.index):
            for c in sentence.citations:
                if c.shape != "rag24" or c.doc_id is None or not start <= c.start <= end:
                    continue
                line, ch = doc.line_index.position(c.end, ls.encoding)
                hints.append(
                    types.InlayHint(
                        position=types.Position(line, ch),
                        label=f"→ {c.doc_id}",
                        padding_left=True,
                        tooltip=f"references[{doc.text[c.start : c.end]}] is {c.doc_id}",
                    )
                )
    return hints


def folding(ls: CiteLensServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return []
    index, out = doc.line_index, []
    for item in doc.items:
        first, last = index.line_of(item.start), index.line_of(max(item.end - 1, item.start))
        if last > first:
            out.append(
                types.FoldingRange(start_line=first, end_line=last, kind=types.FoldingRangeKind.Region)
            )
    return out


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_REFERENCES, None, references),
    (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False), inlay_hints),
    (types.TEXT_DOCUMENT_FOLDING_RANGE, None, folding),
]
