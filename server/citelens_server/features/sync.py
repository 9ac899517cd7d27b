"""Document sync: open, change, save, close, applied to the session's documents.

Incoming change ranges are converted to code-point offsets through the document's line
index one change at a time (a change's range refers to the text left by the previous one).
"""

from __future__ import annotations

import logging

from lsprotocol import types

from citelens_server.lsp.positions import range_offsets
from citelens_server.runtime.server import CiteLensServer, Feature

log = logging.getLogger("citelens_server")


def did_open(ls: CiteLensServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    if not ls.is_report_file(item.uri):
        return
    ls.open_reports.add(item.uri)
    ls.checks.open(item.uri, item.text, item.version)  # read and checked in a worker


def did_change(ls: CiteLensServer, params: types.DidChangeTextDocumentParams) -> None:
    from citelens.session import TextChange

    uri = params.text_document.uri
    doc = ls.document(uri)
    if doc is None:
        return
    changes = params.content_changes
    last = len(changes) - 1
    for i, change in enumerate(changes):
        version = params.text_document.version if i == last else None
        rng = getattr(change, "range", None)
        if rng is None:
            edit = TextChange(None, None, change.text)
        else:
            start, end = range_offsets(doc.line_index, rng, ls.encoding)
            edit = TextChange(start, end, change.text)
        doc.apply_changes([edit], version=version)
    ls.request_check(uri)


def did_save(ls: CiteLensServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.runs.wake()  # a saved run file: workspace reports look again
    if ls.session.refresh():  # a saved project file, spec or topics file
        ls.recheck_all()
    elif uri in ls.open_reports:
        ls.request_check(uri, now=True)


def did_close(ls: CiteLensServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri not in ls.open_reports:
        return
    ls.open_reports.discard(uri)
    ls.session.close(uri)
    ls.clear(uri)


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    (types.TEXT_DOCUMENT_DID_SAVE, None, did_save),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
]
