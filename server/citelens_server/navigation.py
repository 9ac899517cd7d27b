"""Navigation (go to a cited document is in cited_documents.py): references of a doc id, document and workspace
symbols, inlay hints after rag24 index citations, folding per report.

All of it reads the session's report items and sentences; nothing here knows a rule.
"""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types

from citelens_server.positions import lsp_range, range_offsets
from citelens_server.server import SETTINGS_ERRORS, CiteLensServer

log = logging.getLogger("citelens_server")
#: workspace symbols answered at most (a workspace of big runs has many reports)
MAX_WORKSPACE_SYMBOLS = 500


def report_label(doc: Any, item: Any) -> tuple[str, str]:
    """(topic id or "report N", run id or "") of one report item, read as the checker reads it."""
    from citelens.check.view import ReportView

    value = item.value
    if not isinstance(value, dict):
        return f"report {item.index + 1}", ""
    try:
        spec = doc.checker.spec
    except SETTINGS_ERRORS:
        spec = None
    view = ReportView.build(value, spec)
    run_id = view.meta.get("run_id") if isinstance(view.meta, dict) else None
    return (view.topic_id or f"report {item.index + 1}"), (run_id if isinstance(run_id, str) else "")


def cited_doc_id(doc: Any, offset: int) -> str | None:
    """The doc id under `offset`: a citation's, or a `references` entry's."""
    citation = doc.citation_at(offset)
    if citation is not None:
        return citation.doc_id
    node = doc.node_at(offset)
    if node is not None and node.kind == "string" and node.pointer.startswith("/references/"):
        text = doc.text[node.start : node.end]
        import json

        try:
            value = json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    return None


def register(server: CiteLensServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
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

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(
        ls: CiteLensServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        doc = ls.document(params.text_document.uri)
        if doc is None:
            return []
        index, enc, out = doc.line_index, ls.encoding, []
        problem = ls.problem(doc)  # the check failed: the reports, without their sentences
        for item in doc.items:
            if item.syntax is not None:
                continue
            topic, run_id = report_label(doc, item)
            sentences = doc.sentences(item.index) if problem is None else []
            citations = sum(len(s.citations) for s in sentences)
            children = [
                types.DocumentSymbol(
                    name=_sentence_name(s),
                    detail=f"{len(s.citations)} citation(s)",
                    kind=types.SymbolKind.String,
                    range=lsp_range(index, s.start, s.end, enc),
                    selection_range=lsp_range(index, s.start, s.end, enc),
                )
                for s in sentences
            ]
            rng = lsp_range(index, item.start, item.end, enc)
            out.append(
                types.DocumentSymbol(
                    name=topic,
                    detail=f"{run_id + ' · ' if run_id else ''}{len(sentences)} sentences, {citations} citations",
                    kind=types.SymbolKind.Object,
                    range=rng,
                    selection_range=rng,
                    children=children,
                )
            )
        return out

    @server.feature(types.WORKSPACE_SYMBOL)
    def workspace_symbols(
        ls: CiteLensServer, params: types.WorkspaceSymbolParams
    ) -> list[types.WorkspaceSymbol]:
        query = params.query.lower()
        out: list[types.WorkspaceSymbol] = []
        for uri in sorted(ls.open_reports):
            doc = ls.document(uri)
            if doc is None:
                continue
            for item in doc.items:
                if item.syntax is not None:
                    continue
                topic, run_id = report_label(doc, item)
                if query and query not in topic.lower():
                    continue
                rng = lsp_range(doc.line_index, item.start, item.end, ls.encoding)
                out.append(
                    types.WorkspaceSymbol(
                        name=topic,
                        kind=types.SymbolKind.Object,
                        location=types.Location(uri=uri, range=rng),
                        container_name=run_id or None,
                    )
                )
                if len(out) >= MAX_WORKSPACE_SYMBOLS:
                    return out
        return out

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
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

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
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


def _sentence_name(sentence: Any) -> str:
    text = " ".join((sentence.text or "").split())
    label = f"{sentence.index + 1}. {text}" if text else f"{sentence.index + 1}. (no text)"
    return label if len(label) <= 80 else label[:77] + "…"
