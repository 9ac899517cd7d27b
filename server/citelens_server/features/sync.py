"""Document sync: open, change, save, close, applied to the session's documents.

The `didChange` notifications of a document that wait to be handled (a client types
faster than edits apply) are applied together: one `apply_changes` call and one check
request per batch (runtime/change_queue.py says when a batch is applied). Incoming change
ranges are converted to code-point offsets one change at a time, through the line index
of the text the previous change left.

A byte-order mark at the start of an editor's text is not JSON (`citelens check` drops it
when it decodes the file): it is read as blanks of the BOM's width in the negotiated
position encoding (one space in UTF-16 and UTF-32, three in UTF-8), so the reports are
read as the CLI reads them and every position the client sends or gets stays right.

A change that cannot apply (a range past the end of the text, or one that ends before it
starts) means the client's text and the server's have diverged. LSP has no request for
the client's text, so the server re-opens the document from the file on disk (an
untitled one is dropped until it is opened again), logs a warning saying so, and checks
it again: never silent divergence, never findings on a text the user does not see for
longer than it takes to save or reopen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens_server.lsp.edits import text_change
from citelens_server.lsp.positions import without_bom
from citelens_server.runtime.change_offsets import BatchLines, line_batch, range_offsets
from citelens_server.runtime.collector import BIG_CHARS
from citelens_server.runtime.server import CiteLensServer, Feature, uri_path

if TYPE_CHECKING:
    from citelens.session import TextChange

log = logging.getLogger("citelens_server")


def did_open(ls: CiteLensServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    if not ls.is_report_file(item.uri, item.text):
        return
    ls.open_reports.add(item.uri)
    ls.checks.open(
        item.uri, without_bom(item.text, ls.encoding), item.version
    )  # read and checked in a worker


def did_change(ls: CiteLensServer, params: types.DidChangeTextDocumentParams) -> None:
    """Recorded; applied with the other edits of the document already read (one batch)."""
    uri = params.text_document.uri
    if ls.document(uri) is None:
        return
    ls.checks.changes.add(uri, params, lambda u, batch: apply_batch(ls, u, batch))


def apply_batch(ls: CiteLensServer, uri: str, batch: list[types.DidChangeTextDocumentParams]) -> None:
    """Apply the waiting notifications of `uri` in one `apply_changes` call, then ask for
    one check. Each range is converted through the line index of the text the changes
    before it leave (`LineIndex.edited`: only the lines around an edit are re-scanned).
    A change that cannot apply resyncs the document after the changes before it; the
    notifications after it wait for the re-read, as they did one by one."""
    from citelens.session import TextChange
    from citelens.source.line_index import LineIndex

    doc = ls.document(uri)
    if doc is None:
        return
    many = sum(len(p.content_changes) for p in batch) > 1
    if not many and len(doc.text) >= BIG_CHARS:  # a big document's edit: off the loop
        params, change = batch[0], batch[0].content_changes[0]
        rng = getattr(change, "range", None)
        if rng is not None and applies(doc.line_index.line_count, rng):
            start, end = range_offsets(doc.line_index, rng, ls.encoding)
            edit, new = TextChange(start, end, change.text), params.text_document.version
            ls.checks.edit(uri, lambda: doc.apply_changes([edit], version=new))
            return
    fast = line_batch(doc.line_index, batch, ls.encoding)
    if fast is not None:  # keystrokes that keep every line where it is: no line index between them
        doc.apply_changes([_narrowed(doc.text, *fast)], version=batch[-1].text_document.version)
        ls.request_check(uri)
        return
    edits: list[TextChange] = []
    version: int | None = None
    lines: LineIndex | BatchLines = BatchLines(doc.line_index) if many else doc.line_index
    for n, params in enumerate(batch):
        for change in params.content_changes:
            rng = getattr(change, "range", None)
            if rng is None:
                edit = TextChange(None, None, without_bom(change.text, ls.encoding))
                ls.checks.whole.add(uri)  # every report is read again: a worker checks it
                if many:
                    lines = BatchLines(LineIndex(edit.text))
            elif not applies(lines.line_count, rng):
                if edits:
                    doc.apply_changes(edits, version=version)
                resync(ls, uri, params.text_document.version, rng)
                for rest in batch[n + 1 :]:
                    if uri in ls.checks.running:
                        ls.checks.hold_change(uri, rest)
                    else:  # dropped (an untitled document): later edits find no document
                        did_change(ls, rest)
                return
            else:
                start, end = range_offsets(lines, rng, ls.encoding)
                edit = TextChange(start, end, change.text)
                if isinstance(lines, BatchLines):
                    lines.replace(start, end, change.text)
            edits.append(edit)
        version = params.text_document.version
    if isinstance(lines, BatchLines) and all(e.start is not None for e in edits):
        # the lines rewritten, narrowed to the characters: the engine re-reads the changed reports once
        edits = [_narrowed(doc.text, *lines.net_change())]
    doc.apply_changes(edits, version=version)
    ls.request_check(uri)


def _narrowed(text: str, start: int, end: int, new: str) -> TextChange:
    """The replacement of `text[start:end]` by `new`, narrowed to the characters that differ."""
    from citelens.session import TextChange

    lo, hi, new = text_change(text[start:end], new)
    return TextChange(start + lo, start + hi, new)


def applies(line_count: int, rng: types.Range) -> bool:
    """Whether a change's range lies in a text of `line_count` lines (a character past a
    line's end is clamped, as LSP says; a line past the end is not) and is in order."""
    start, end = rng.start, rng.end
    if (start.line, start.character) > (end.line, end.character):
        return False
    return all(p.line < line_count or (p.line == line_count and p.character == 0) for p in (start, end))


def resync(ls: CiteLensServer, uri: str, version: int, rng: types.Range) -> None:
    """The client's text and the server's diverged: re-open the document from disk."""
    where = f"{rng.start.line}:{rng.start.character}-{rng.end.line}:{rng.end.character}"
    path = uri_path(uri)
    if path is None or not path.is_file():
        log.warning(
            "%s: an edit at %s cannot apply to the text the server holds; the document is "
            "dropped until it is opened again",
            uri,
            where,
        )
        ls.open_reports.discard(uri)
        ls.session.close(uri)
        ls.clear(uri)
        return
    log.warning(
        "%s: an edit at %s cannot apply to the text the server holds; re-read the file from "
        "disk (save, or close and reopen it, if it has unsaved changes)",
        uri,
        where,
    )
    ls.checks.reopen(uri, path, version)


def did_save(ls: CiteLensServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.runs.wake()  # a saved run file: workspace reports look again
    if ls.session.refresh():  # a saved project file, spec or topics file
        ls.recheck_all()
    elif uri in ls.open_reports:
        ls.request_check(uri, now=True)
    if uri in ls.open_reports:
        from citelens_server.features.judging import judge_on_save

        judge_on_save(ls, uri)  # a model judge, when the user's settings enable it on save


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
