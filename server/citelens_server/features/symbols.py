"""The outline: document symbols (one per report, its sentences inside) and workspace
symbols (the reports of the open runs, by topic id). Labels come from the engine
(`citelens.session.outline`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from citelens.session.outline import report_label
from citelens_server.lsp.positions import lsp_range
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import SentenceInfo

#: workspace symbols answered at most (a workspace of big runs has many reports)
MAX_WORKSPACE_SYMBOLS = 500


def document_symbols(ls: CiteLensServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
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


def workspace_symbols(ls: CiteLensServer, params: types.WorkspaceSymbolParams) -> list[types.WorkspaceSymbol]:
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


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbols),
    (types.WORKSPACE_SYMBOL, None, workspace_symbols),
]


def _sentence_name(sentence: SentenceInfo) -> str:
    text = " ".join((sentence.text or "").split())
    label = f"{sentence.index + 1}. {text}" if text else f"{sentence.index + 1}. (no text)"
    return label if len(label) <= 80 else label[:77] + "…"
