"""Go to definition on a citation, and the show-document command: the cited document
with its evidence selected.

A document some file holds as written (the report's own embedded document, a line of a
plain corpus file) opens there. Any other (a compressed corpus, an index, a service) is
a read-only `citelens-doc:` document whose text the client gets from
`citelens.showDocument`; the location's range is the evidence in that text. Only clients
that say they provide such documents (the VS Code extension, through the experimental
capability `citelensDocuments`) get those locations.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from lsprotocol import types

from citelens.source.line_index import LineIndex
from citelens_server.features.evidence import evidence_at
from citelens_server.lsp.positions import Encoding, lsp_range, offset_at
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import OpenDocument

log = logging.getLogger("citelens_server")

SHOW_DOCUMENT = "citelens.showDocument"
SCHEME = "citelens-doc"
#: the experimental client capability that says the client shows `citelens-doc:` documents
CAPABILITY = "citelensDocuments"


def virtual_uri(report_uri: str, line: int, character: int, doc_id: str) -> str:
    """`citelens-doc:/<doc id>.txt?<{"uri","line","character"} as JSON>`: the document
    cited at that position of the run (the VS Code extension's `citedDocumentUri`)."""
    name = doc_id.replace("/", "_").replace("\\", "_")
    where = json.dumps({"uri": report_uri, "line": line, "character": character}, separators=(",", ":"))
    return f"{SCHEME}:/{quote(name)}.txt?{quote(where, safe='')}"


def takes_virtual_documents(ls: CiteLensServer) -> bool:
    experimental = getattr(ls.client_capabilities, "experimental", None)
    return isinstance(experimental, dict) and bool(experimental.get(CAPABILITY))


def _range_in(text: str, span: tuple[int, int] | None, first_line: int, encoding: Encoding) -> types.Range:
    if span is None:
        return types.Range(types.Position(first_line, 0), types.Position(first_line, 0))
    index = LineIndex(text)
    (l1, c1), (l2, c2) = index.position(span[0], encoding), index.position(span[1], encoding)
    return types.Range(types.Position(first_line + l1, c1), types.Position(first_line + l2, c2))


def definition_of(ls: CiteLensServer, doc: OpenDocument, offset: int) -> types.Location | None:
    from citelens.session.cited import evidence_place, render

    cited = evidence_at(doc, offset)
    if cited is None or cited.document is None:
        return None
    place = evidence_place(doc, cited)
    if place is not None and place.path is None:
        return types.Location(
            uri=doc.uri, range=lsp_range(doc.line_index, place.start, place.end, ls.encoding)
        )
    if place is not None and place.path is not None:
        return types.Location(
            uri=place.path.as_uri(),
            range=_range_in(place.text, (place.start, place.end), place.line, ls.encoding),
        )
    if not takes_virtual_documents(ls):
        return None
    line, character = doc.line_index.position(cited.citation.start, ls.encoding)
    rendered = render(cited.document, cited.verdict)
    return types.Location(
        uri=virtual_uri(doc.uri, line, character, cited.document.doc_id),
        range=_range_in(rendered.text, rendered.selection, 0, ls.encoding),
    )


def definition(ls: CiteLensServer, params: types.DefinitionParams) -> list[types.Location] | None:
    at = ls.document_at(params)
    if at is None or ls.problem(at[0]) is not None:
        return None
    found = definition_of(ls, *at)
    return [found] if found is not None else None


def show_document(
    ls: CiteLensServer, uri: str, line: int, character: int, *rest: Any
) -> dict[str, Any] | None:
    """The document cited at a position: its id, title, origin and text, `content` (the
    read-only view: a header, then the text) and `selection` (the evidence in `content`)."""
    from citelens.session.cited import document_json, render

    doc = ls.document(uri)
    if doc is None or ls.problem(doc) is not None:
        return None
    offset = offset_at(doc.line_index, line, character, ls.encoding)
    cited = evidence_at(doc, offset)
    if cited is None or cited.document is None:
        return None
    rendered = render(cited.document, cited.verdict)
    answer = document_json(cited.document)
    answer["content"] = rendered.text
    if rendered.selection is not None:
        rng = _range_in(rendered.text, rendered.selection, 0, ls.encoding)
        answer["selection"] = {
            "start": {"line": rng.start.line, "character": rng.start.character},
            "end": {"line": rng.end.line, "character": rng.end.character},
        }
    if cited.verdict is not None:
        answer["verdict"] = cited.verdict.verdict.value
    return answer


FEATURES: list[Feature] = [
    (types.TEXT_DOCUMENT_DEFINITION, None, definition),
]

COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (SHOW_DOCUMENT, show_document),
]
