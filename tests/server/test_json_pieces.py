"""A big message decoded in pieces (runtime/json_pieces.py) equals `json.loads` of it:
escapes, surrogate pairs and multi-byte characters cut at piece borders included."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from citelens_server.runtime import json_pieces

#: raw pieces of a JSON string literal, escapes among them, each valid on its own
FRAGMENTS = [
    "a",
    " ",
    "é",
    "😀",
    "\u2028",
    '\\"',
    "\\\\",
    "\\/",
    "\\n",
    "\\t",
    "\\b",
    "\\u00e9",
    "\\u2028",
    "\\ud83d\\ude00",  # an escaped surrogate pair
    "\\ud83d",  # a lone high surrogate
    "\\ude00",  # a lone low surrogate
    "\\uD83D\\uDE00",
    "\\ud83d\\u0041",
    '{\\"text\\": \\"x\\"}\\n',
]

literals = st.lists(st.sampled_from(FRAGMENTS), max_size=80).map("".join)
pieces = st.integers(min_value=8, max_value=64)


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_pieces, "BIG", 0)  # every body goes piecewise
    monkeypatch.setattr(json_pieces, "FIRST_PIECE", 8)
    monkeypatch.setattr(json_pieces, "LONG_STRING", 0)  # every string value read from the bytes


def message(literal: str) -> bytes:
    return (
        '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":'
        f'{{"uri":"file:///r.jsonl","version":1,"text":"{literal}"}},"n":[1,2.5,-3e2,true,null]}}}}'
    ).encode()


@settings(max_examples=400, deadline=None)
@given(literal=literals, piece=pieces, slice_=st.integers(min_value=1, max_value=16))
@example(literal="\\ud83d" * 40, piece=8, slice_=1)  # no safe cut near the piece ends
@example(literal="\\\\" * 30 + '\\"', piece=9, slice_=3)
def test_equals_json_loads(literal: str, piece: int, slice_: int) -> None:
    json_pieces.PIECE = piece
    json_pieces.SLICE = slice_  # multi-byte characters cut between slices too
    try:
        body = message(literal)
        assert json_pieces.loads(body) == json.loads(body)
    finally:
        json_pieces.PIECE, json_pieces.SLICE = 1 << 18, 1 << 20


@settings(max_examples=300, deadline=None)
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=20,
    ),
    ascii_only=st.booleans(),
    piece=pieces,
)
def test_any_value_round_trips(value: object, ascii_only: bool, piece: int) -> None:
    json_pieces.PIECE = piece
    try:
        body = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
        assert json_pieces.loads(body) == json.loads(body)
    finally:
        json_pieces.PIECE = 1 << 18


@settings(max_examples=300, deadline=None)
@given(literal=literals, piece=pieces, data=st.data())
def test_broken_messages_fail_as_json_loads_fails(literal: str, piece: int, data: st.DataObject) -> None:
    """A truncated or corrupted message is an error at the same position, with the same
    message, as `json.loads` gives (the server logs it and reads on)."""
    json_pieces.PIECE = piece
    body = message(literal)
    at = data.draw(st.integers(min_value=0, max_value=len(body)))
    junk = data.draw(st.sampled_from([b"", b"\\x", b"\x01", b"\\u12", b'"', b"}"]))
    broken = body[:at] + junk + (body[at:] if data.draw(st.booleans()) else b"")  # inserted or cut
    try:
        try:
            expected: object = json.loads(broken)
        except json.JSONDecodeError as exc:
            expected = (exc.msg, exc.pos)
        except UnicodeDecodeError:
            return
        try:
            got: object = json_pieces.loads(broken)
        except json.JSONDecodeError as exc:
            got = (exc.msg, exc.pos)
        assert got == expected
    finally:
        json_pieces.PIECE = 1 << 18


def test_a_big_text_is_scanned_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The document's text is not one C call: the scanner is called once per piece."""
    calls: list[int] = []
    real = json_pieces._scanstring

    def counting(s: str, end: int, strict: bool = True) -> tuple[str, int]:
        calls.append(len(s) - end)
        return real(s, end, strict)

    monkeypatch.setattr(json_pieces, "_scanstring", counting)
    text = '{"answer": [], "metadata": {"run_id": "r\\u00e9"}}\n' * 20_000  # ~1 MB
    body = json.dumps({"jsonrpc": "2.0", "method": "m", "params": {"text": text}}).encode()
    assert json_pieces.loads(body)["params"]["text"] == text
    assert len(calls) >= len(body) // json_pieces.PIECE
    assert max(calls) <= json_pieces.PIECE + 100


def test_a_utf8_body_is_never_decoded_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its long strings are read from the bytes in pieces: decoding the whole body to text
    first was one C call over all of it, and a second copy of the document."""

    def whole(body: bytes | bytearray) -> str:
        raise AssertionError("the whole body decoded")

    monkeypatch.setattr(json_pieces, "decode_text", whole)
    monkeypatch.setattr(json_pieces, "LONG_STRING", 1000)
    monkeypatch.setattr(json_pieces, "PIECE", 4096)
    text = '{"answer": [], "metadata": {"run_id": "r\\u00e9 \u00e9 \U0001f600"}}\n' * 3000
    message = {
        "jsonrpc": "2.0",
        "method": "m",
        "params": {"text": text, "uri": "file:///r.jsonl", "n": [1, 2]},
    }
    for ascii_only in (True, False):
        body = json.dumps(message, ensure_ascii=ascii_only).encode()
        assert json_pieces.loads(body) == message
