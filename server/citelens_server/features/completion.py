"""Completion in run files: the engine's candidates (citelens.session.completion) as LSP
items, each replacing the token being typed. No rule logic here."""

from __future__ import annotations

import logging

from lsprotocol import types

from citelens_server.lsp.positions import lsp_range
from citelens_server.runtime.server import SETTINGS_ERRORS, CiteLensServer, Feature

log = logging.getLogger("citelens_server")

#: the engine's kinds -> LSP's
KINDS = {
    "key": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.EnumMember,
    "topic": types.CompletionItemKind.Value,
    "doc_id": types.CompletionItemKind.Reference,
    "index": types.CompletionItemKind.Reference,
}
TRIGGERS = ['"', ",", "[", "{", ":", " "]


def completion(ls: CiteLensServer, params: types.CompletionParams) -> types.CompletionList | None:
    """The engine's candidates at the cursor, each replacing the token being typed."""
    at = ls.document_at(params)
    if at is None:
        return None
    doc, offset = at
    from citelens.session.completion import completions

    try:
        found = completions(doc, offset)
    except SETTINGS_ERRORS:  # a broken spec or topics file: the diagnostics say so
        return None
    items = []
    for n, c in enumerate(found):
        items.append(
            types.CompletionItem(
                label=c.label,
                kind=KINDS[c.kind],
                detail=c.detail or None,
                filter_text=c.insert,
                sort_text=f"{n:05d}",
                text_edit=types.TextEdit(
                    range=lsp_range(doc.line_index, c.start, c.end, ls.encoding), new_text=c.insert
                ),
            )
        )
    return types.CompletionList(is_incomplete=False, items=items)


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGERS), completion),
]
