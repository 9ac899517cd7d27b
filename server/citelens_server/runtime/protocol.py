"""The one module that relies on pygls's private behaviour (each use is pinned by
tests/server/test_internals.py, so an upgrade that changes it fails there; attrs's one
private hook is start_cache.py's, which must run before lsprotocol is imported).

- Documents live in `citelens.session`, not in pygls's workspace: pygls keeps its own
  copy of every open document and splits its lines with `str.splitlines`, which breaks
  at a raw U+2028 inside a JSON string and then applies incremental edits to the wrong
  line. The sync notifications go straight to the server's handlers instead.
- Messages about a document being checked in a worker wait for the check (`holds`).
- A `didChange` of the usual shape skips cattrs and pygls's dispatch (`handle_change`):
  typing sends one per keystroke.
- A result that is already JSON text (`Json`) is written as is, skipping cattrs.
- The lifecycle rules of the LSP specification: a request before `initialize` is
  answered -32002, a notification then is dropped, a second `initialize` and any request
  after `shutdown` are answered -32600, and `exit` without `shutdown` ends the process
  with code 1 (`exit_code`). A request whose params do not fit its method is answered
  -32602 (pygls only logged it, and the client waited forever).
- The position encoding is chosen as pygls chooses it; a progress token's cancellation
  is read from (and waited for in) pygls's token table.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import FeatureNotificationError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method

from citelens_server.lsp.json_text import Json
from citelens_server.runtime.change_params import change_params

if TYPE_CHECKING:
    from citelens_server.runtime.early_answer import EarlyAnswer

log = logging.getLogger("citelens_server")


#: JSON-RPC error codes of the lifecycle rules
SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


class Answered:
    """A message already answered while it was read (its params did not fit)."""

    __slots__ = ()


class CiteLensProtocol(LanguageServerProtocol):
    initialize_seen = False
    #: the `initialize` read ahead and maybe answered before the server loaded (__main__)
    early_answer: EarlyAnswer | None = None
    #: the process's exit code once `exit` arrives: 1 unless `shutdown` came first
    exit_code = 0

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcInvalidParams:
            method = data.get("method")
            if "id" in data and method is not None:
                self._send_error(data["id"], INVALID_PARAMS, f"invalid params for {method}")
            else:
                log.warning("%s: invalid params; ignored", method)
            return Answered()

    def _send_error(self, msg_id: Any, code: int, message: str) -> None:
        super()._send_response(msg_id, error=types.ResponseError(code=code, message=message))

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        self.exit_code = 0 if self._shutdown else 1
        yield from super().lsp_exit(*args)

    def _user(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def handle_change(self, value: dict[str, Any]) -> bool:
        """A `didChange` notification handled from its JSON (`change_params`): True if it
        was; False leaves it to `handle_message`, after pygls structures it. The same
        rules apply: dropped before `initialize`, held while its document is checked."""
        if value.get("method") != types.TEXT_DOCUMENT_DID_CHANGE or "id" in value or not self.initialize_seen:
            return False
        params = change_params(value.get("params"))
        return params is not None and self._handle_change(params)

    def handle_change_params(self, params: types.DidChangeTextDocumentParams) -> None:
        """A `didChange` notification read straight from its bytes (stdio.py `Keystrokes`):
        as `handle_change`, else as pygls would have structured it."""
        if not (self.initialize_seen and self._handle_change(params)):
            self.handle_message(types.DidChangeTextDocumentNotification(params=params))

    def _handle_change(self, params: types.DidChangeTextDocumentParams) -> bool:
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is None:
            return False
        checks = getattr(self._server, "checks", None)
        uri = params.text_document.uri
        if checks is not None and not self._shutdown and uri in checks.running:
            checks.hold_change(uri, params)  # as `holds` would: its document is being checked
            return True
        try:
            handler(params)
        except Exception as exc:  # reported as pygls reports a notification handler's error
            self._server.report_server_error(exc, FeatureNotificationError)
        return True

    def handle_message(self, message: Any) -> None:
        """The lifecycle rules first; then messages about a document being checked in the
        background wait for the check (see checks.py); all others are handled now."""
        if isinstance(message, Answered) or not self._lifecycle_allows(message):
            return
        checks = getattr(self._server, "checks", None)
        if checks is not None and not self._shutdown and checks.holds(message):
            return
        super().handle_message(message)

    def _lifecycle_allows(self, message: Any) -> bool:
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        is_request = method is not None and msg_id is not None
        if method == types.EXIT or method is None:  # exit, or a response to the server
            return True
        if not self.initialize_seen:
            if method == types.INITIALIZE and is_request:
                self.initialize_seen = True
                return True
            if is_request:
                self._send_error(msg_id, SERVER_NOT_INITIALIZED, f"{method} before initialize")
            return False  # a notification before initialize is dropped
        if method == types.INITIALIZE and is_request:
            self._send_error(msg_id, INVALID_REQUEST, "initialize was already received")
            return False
        if self._shutdown and is_request:
            self._send_error(msg_id, INVALID_REQUEST, f"{method} after shutdown")
            return False
        return True

    # --- plain-JSON messages -----------------------------------------------------------
    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        early = self.early_answer
        if early is not None and msg_id == early.msg_id:  # `initialize`: see early_answer.py
            self.early_answer = None
            answer = (
                None if error is not None else json.loads(json.dumps(result, default=self._serialize_message))
            )
            if early.settle(msg_id, answer):
                self._result_types.pop(msg_id, None)
                return
        if error is None and isinstance(result, Json):
            self._result_types.pop(msg_id, None)
            self.send_body(f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":{result.text}}}')
        else:
            super()._send_response(msg_id, result, error)

    def send_body(self, *parts: str | bytes) -> None:
        """Write one message whose JSON text is already made, given in `parts` (ASCII: see
        `Json`), so a big one is neither joined nor encoded on the event loop when the
        writer takes parts (runtime/stdio.py's writes them from its thread)."""
        if self.writer is None:
            return
        length = sum(map(len, parts))
        header = (
            f"Content-Length: {length}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        )
        write_parts = getattr(self.writer, "write_parts", None)
        if write_parts is not None:
            write_parts((header.encode(self.CHARSET), *parts))
            return
        body = b"".join(p if isinstance(p, bytes) else p.encode(self.CHARSET) for p in parts)
        res = self.writer.write(header.encode(self.CHARSET) + body)
        if inspect.isawaitable(res):
            self._pending_write = asyncio.ensure_future(res)

    def notify_json(self, method: str, params: Any) -> None:
        """A notification whose params are already plain JSON (no cattrs round trip)."""
        self._send_data({"jsonrpc": "2.0", "method": method, "params": params})


def choose_position_encoding(capabilities: types.ClientCapabilities) -> Any:
    """The position encoding pygls negotiates for these client capabilities."""
    from pygls.capabilities import ServerCapabilitiesBuilder

    return ServerCapabilitiesBuilder.choose_position_encoding(capabilities)


def progress_cancelled(ls: Any, token: str) -> bool:
    """Whether the client cancelled the work-done progress `token` (pygls keeps one
    future per token)."""
    future = ls.work_done_progress.tokens.get(token)
    return bool(future is not None and future.cancelled())


def when_progress_cancelled(ls: Any, token: str, callback: Callable[[], None]) -> None:
    """Call `callback` as soon as the client cancels the work-done progress `token` (on
    the thread that reads the cancel; at once if it is cancelled already)."""
    future = ls.work_done_progress.tokens.get(token)
    if future is not None:
        future.add_done_callback(lambda f: callback() if f.cancelled() else None)
