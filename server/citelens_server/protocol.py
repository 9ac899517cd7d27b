"""The protocol class: documents live in `citelens.session`, not in pygls' workspace.

pygls keeps its own copy of every open document and splits its lines with
`str.splitlines`, which breaks at a raw U+2028 inside a JSON string and then applies
incremental edits to the wrong line. The server's sync handlers keep the one copy that
matters (the session's `OpenDocument`), so the built-in copies are switched off here.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method


class CiteLensProtocol(LanguageServerProtocol):
    def _user(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Generator:
        yield from self._user(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator:
        yield from self._user(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator:
        yield from self._user(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def handle_message(self, message: Any) -> None:
        """Messages about a document being checked in the background wait for the check
        (see background.py); all others are handled now."""
        checks = getattr(self._server, "checks", None)
        if checks is not None and not self._shutdown and checks.holds(message):
            return
        super().handle_message(message)

    # --- plain-JSON messages -----------------------------------------------------------
    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, Json):
            self._result_types.pop(msg_id, None)
            self.send_body(f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":{result.text}}}')
        else:
            super()._send_response(msg_id, result, error)

    def send_body(self, body: str) -> None:
        """Write one message whose JSON text is already made (ASCII: see `Json`)."""
        if self.writer is None:
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        res = self.writer.write((header + body).encode(self.CHARSET))
        if inspect.isawaitable(res):
            self._pending_write = asyncio.ensure_future(res)

    def notify_json(self, method: str, params: Any) -> None:
        """A notification whose params are already plain JSON (no cattrs round trip)."""
        self._send_data({"jsonrpc": "2.0", "method": method, "params": params})


class Json:
    """A handler result that is already JSON text (ASCII, as `json.dumps` writes it): sent
    as is. Publishing thousands of diagnostics through cattrs and `json.dumps` on every
    keystroke would cost more than checking the edit."""

    __slots__ = ("text",)

    def __init__(self, value: Any = None, *, text: str | None = None) -> None:
        self.text = text if text is not None else json.dumps(value)
