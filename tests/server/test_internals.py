"""What the server relies on of pygls's and attrs's private behaviour, pinned: every use
sits in `citelens_server.runtime.protocol` (attrs: `runtime.start_cache`, and the slots of
lsprotocol's `didChange` params: `runtime.change_params`), and an upgrade
that changes one of these fails here, not in an editor."""

from __future__ import annotations

import asyncio
import inspect
import json
from types import SimpleNamespace

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

from citelens_server.app import create_server
from citelens_server.features import hover, sync
from citelens_server.lsp.json_text import Json
from citelens_server.runtime.protocol import (
    CiteLensProtocol,
    choose_position_encoding,
    progress_cancelled,
    when_progress_cancelled,
)

SYNC = (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_CLOSE)


class _Writer:
    def __init__(self) -> None:
        self.data: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.data.append(data)

    def close(self) -> None:
        pass


def test_handlers_are_found_by_method_in_the_feature_manager() -> None:
    server = create_server()
    features = server.protocol.fm.features
    for method, handler in (
        (types.TEXT_DOCUMENT_HOVER, hover.hover),
        (types.TEXT_DOCUMENT_DID_OPEN, sync.did_open),
    ):
        registered = features[method]  # the plain function, given the server first
        assert getattr(registered, "func", registered) is handler
        assert getattr(registered, "args", (server,)) == (server,)


def test_the_sync_notifications_bypass_pyglss_document_copies() -> None:
    """pygls registers every `lsp_method` of the protocol class as a built-in feature; the
    overrides keep its names, so the built-ins of document sync are the server's own."""
    server = create_server()
    builtin = server.protocol.fm.builtin_features
    for method in SYNC:
        name = f"lsp_text_document__{method.split('/')[1].replace('did', 'did_').lower()}"
        assert getattr(LanguageServerProtocol, name).method_name == method
        assert builtin[method].__func__ is getattr(CiteLensProtocol, name)
        handlers = list(builtin[method](SimpleNamespace()))  # only the server's handler, no copy
        assert [h for h, _args, _ in handlers] == [server.protocol.fm.features[method]]


def test_a_json_result_is_written_as_is() -> None:
    server = create_server()
    protocol = server.protocol
    assert "error" in inspect.signature(LanguageServerProtocol._send_response).parameters
    writer = _Writer()
    protocol.set_writer(writer)
    protocol._result_types[7] = object()
    protocol._send_response(7, Json(text='{"kind":"full","items":[]}'))
    assert 7 not in protocol._result_types
    header, body = writer.data[-1].split(b"\r\n\r\n", 1)
    assert json.loads(body) == {"jsonrpc": "2.0", "id": 7, "result": {"kind": "full", "items": []}}
    assert int(header.split(b"\r\n")[0].split(b":")[1]) == len(body)
    protocol.notify_json("window/logMessage", {"type": 3, "message": "x"})
    assert json.loads(writer.data[-1].split(b"\r\n\r\n", 1)[1])["params"]["message"] == "x"


def test_messages_about_a_document_in_a_check_wait_for_it() -> None:
    server = create_server()
    protocol = server.protocol
    assert protocol._server is server and protocol._shutdown is False
    protocol.initialize_seen = True  # as after `initialize`
    message = SimpleNamespace(
        jsonrpc="2.0",
        id=3,
        method=types.TEXT_DOCUMENT_HOVER,
        params=SimpleNamespace(text_document=SimpleNamespace(uri="file:///r.jsonl")),
    )
    loop = asyncio.new_event_loop()
    try:
        server.checks.running["file:///r.jsonl"] = loop.create_future()
        protocol.handle_message(message)
        assert server.checks.held["file:///r.jsonl"] == [message]
    finally:
        loop.close()


def test_the_position_encoding_is_negotiated_as_pygls_does() -> None:
    offered = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    )
    assert choose_position_encoding(offered) == types.PositionEncodingKind.Utf8
    assert choose_position_encoding(types.ClientCapabilities()) == types.PositionEncodingKind.Utf16


def test_a_cancelled_progress_token_is_seen() -> None:
    server = create_server()
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        server.work_done_progress.tokens["citelens-test-1"] = future
        assert not progress_cancelled(server, "citelens-test-1")
        future.cancel()
        assert progress_cancelled(server, "citelens-test-1")
        assert not progress_cancelled(server, "no-such-token")
    finally:
        loop.close()


def test_a_progress_cancel_calls_back_at_once() -> None:
    """pygls keeps a concurrent.futures.Future per progress token and cancels it when the
    client cancels the progress (its `lsp_work_done_progress_cancel`)."""
    server = create_server()
    server.work_done_progress._register_token("citelens-test-2")
    seen: list[str] = []
    when_progress_cancelled(server, "citelens-test-2", lambda: seen.append("cancelled"))
    when_progress_cancelled(server, "no-such-token", lambda: seen.append("never"))
    assert seen == []
    params = types.WorkDoneProgressCancelParams(token="citelens-test-2")
    for _ in server.protocol.lsp_work_done_progress_cancel(params):  # a handler generator
        pass
    assert seen == ["cancelled"]


def test_attrs_compiles_generated_methods_through_one_function() -> None:
    """The start cache wraps `attr._make._compile_and_eval(script, globs, locs, filename)`."""
    import attr._make as make

    params = list(inspect.signature(make._compile_and_eval).parameters)
    assert params[:4] == ["script", "globs", "locs", "filename"]


CHANGES = [
    {"textDocument": {"uri": "file:///r.jsonl", "version": 7}, "contentChanges": []},
    {
        "textDocument": {"uri": "file:///r.jsonl", "version": 2},
        "contentChanges": [
            {
                "range": {"start": {"line": 0, "character": 3}, "end": {"line": 1, "character": 0}},
                "text": "é\n",
            },
            {"text": '{"a": 1}\n'},
            {
                "range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 2}},
                "rangeLength": 2,
                "text": "",
            },
        ],
    },
]
#: params pygls structures itself (and answers or logs): `change_params` leaves them alone
NOT_FAST = [
    {"textDocument": {"uri": "file:///r.jsonl"}, "contentChanges": []},  # no version
    {"textDocument": {"uri": "file:///r.jsonl", "version": "3"}, "contentChanges": []},
    {
        "textDocument": {"uri": "file:///r.jsonl", "version": 1},
        "contentChanges": [{"range": None, "text": ""}],
    },
    {
        "textDocument": {"uri": "file:///r.jsonl", "version": 1},
        "contentChanges": [
            {"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": ""}
        ],
    },
    {"textDocument": {"uri": "file:///r.jsonl", "version": 2**40}, "contentChanges": []},
    {"textDocument": {"uri": "file:///r.jsonl", "version": 1}, "contentChanges": [{"text": 5}]},
]


def test_a_did_change_built_from_its_json_is_what_pygls_structures() -> None:
    """`change_params` stands in for cattrs on the keystroke path: the same objects."""
    from citelens_server.runtime.change_params import change_params

    protocol = create_server().protocol
    for params in CHANGES:
        message = {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_DID_CHANGE, "params": params}
        assert change_params(params) == protocol.structure_message(json.loads(json.dumps(message))).params
    assert all(change_params(params) is None for params in NOT_FAST)


def test_keystroke_params_built_through_their_slots_equal_lsprotocols_constructors() -> None:
    """`change_params._builder` sets attrs's slots directly (lsprotocol's validating
    constructors were most of reading a keystroke): every field set, the same values."""
    import attrs

    from citelens_server.runtime import change_params as cp

    made = cp._params(
        "file:///r.jsonl",
        3,
        (cp._partial(cp._position(1, 2), cp._position(1, 4), "ab", 2), cp._whole_change("{}\n")),
    )
    expected = types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri="file:///r.jsonl", version=3),
        content_changes=(
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=1, character=2), end=types.Position(line=1, character=4)
                ),
                text="ab",
                range_length=2,
            ),
            types.TextDocumentContentChangeWholeDocument(text="{}\n"),
        ),
    )
    assert made == expected
    assert attrs.asdict(made) == attrs.asdict(expected)  # every slot set (a missing one raises)
    assert type(made.content_changes[0].range.start) is types.Position


def test_a_class_of_other_fields_is_built_by_its_own_validating_constructor() -> None:
    import attrs
    import pytest

    from citelens_server.runtime.change_params import _builder

    @attrs.define
    class Other:
        line: int = attrs.field(validator=attrs.validators.instance_of(int))
        extra: int = 0

    build = _builder(Other, "line")  # not all its fields: the constructor, validators on
    assert build(3) == Other(line=3)
    with pytest.raises(TypeError):
        build("3")
