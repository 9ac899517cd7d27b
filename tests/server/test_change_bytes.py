"""Keystrokes read straight from their bytes (runtime/change_params.py `change_from_bytes`)
and handed to the loop together (runtime/stdio.py `Keystrokes`): the params are exactly
what decoding the JSON gives, any other spelling is left to the decoder, and keystrokes
sent behind a big `didOpen` of their document still wait for it."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citelens_server.runtime.change_params import change_from_bytes, change_params
from citelens_server.runtime.fd_reader import FdReader
from citelens_server.runtime.json_pieces import BIG
from tests.helpers.lsp_session import expected_diagnostics, json_tuples
from tests.helpers.raw_client import opened_run, position_change
from tests.helpers.report_factory import generate_run

uints = st.integers(min_value=0, max_value=2**31 - 1)
texts = st.text(st.characters(codec="utf-8"), max_size=8)  # quotes, backslashes, breaks, astral


def _change(sl: int, sc: int, el: int, ec: int, length: int | None, text: str) -> dict[str, Any]:
    """A change with its keys in the order editors write them."""
    rng = {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
    return (
        {"range": rng, "text": text}
        if length is None
        else {"range": rng, "rangeLength": length, "text": text}
    )


def _message(uri: str, version: int, content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": content},
    }


changes = st.builds(_change, uints, uints, uints, uints, st.none() | uints, texts)
messages = st.builds(
    _message,
    st.text(max_size=12).map(lambda s: "file:///" + s),
    uints,
    st.lists(changes, min_size=1, max_size=3),
)


def _shuffled(value: Any, rng: random.Random) -> Any:
    """`value` with the keys of each object in another order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def _decoded(body: bytes) -> Any:
    """What the ordinary path makes of a keystroke's body."""
    return change_params(json.loads(body)["params"])


@settings(max_examples=300, deadline=None)
@given(
    messages, st.sampled_from(["editor", "spaced", "compact", "indented", "ascii", "shuffled"]), st.randoms()
)
def test_a_keystroke_read_from_its_bytes_is_what_its_json_gives(
    message: dict[str, Any], spelling: str, rng: random.Random
) -> None:
    if spelling == "shuffled":
        message = _shuffled(message, rng)
    dumps = {
        "editor": {"separators": (",", ":"), "ensure_ascii": False},
        "spaced": {"ensure_ascii": False},
        "compact": {"separators": (",", ":")},
        "indented": {"indent": 2, "ensure_ascii": False},
        "ascii": {},
        "shuffled": {"ensure_ascii": False},
    }[spelling]
    body = json.dumps(message, **dumps).encode()
    read = change_from_bytes(body)
    assert read is None or read == _decoded(body)
    plain = b"\\" not in body  # no escape: json.dumps escapes quotes and control characters
    keys_in_order = spelling != "shuffled"
    big_numbers = any(
        n > 999_999_999
        for c in message["params"]["contentChanges"]
        for n in [c["range"]["start"]["line"], c["range"]["start"]["character"], c["range"]["end"]["line"],
                  c["range"]["end"]["character"], c.get("rangeLength", 0)]
    ) or message["params"]["textDocument"]["version"] > 999_999_999  # fmt: skip
    if plain and keys_in_order and not big_numbers:
        assert read is not None, body  # the spellings editors send take the fast path


KEYSTROKE = (
    b'{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a",'
    b'"version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,'
    b'"character":1}},"rangeLength":0,"text":"x"}]}}'
)


def test_other_spellings_and_other_messages_are_left_to_the_decoder() -> None:
    assert change_from_bytes(KEYSTROKE) == _decoded(KEYSTROKE)
    for body in [
        KEYSTROKE.replace(b'"jsonrpc":"2.0",', b'"jsonrpc":"2.0","id":1,'),  # a request
        KEYSTROKE.replace(b"didChange", b"didSave"),
        KEYSTROKE.replace(b'"version":2', b'"version":02'),  # JSON has no leading zeros
        KEYSTROKE.replace(b'"version":2', b'"version":-2'),
        KEYSTROKE.replace(b'"text":"x"', b'"text":"\tx"'),  # a raw control character: not JSON
        KEYSTROKE.replace(b'"text":"x"', b'"text":"\\u00e9"'),  # an escape: decoded by json
        KEYSTROKE.replace(b'"text":"x"', b'"text":"\xff"'),  # not UTF-8
        KEYSTROKE.replace(b'"contentChanges":[{', b'"contentChanges":[]}}'),
        KEYSTROKE + b" x",
        KEYSTROKE[:-1],
        KEYSTROKE.replace(b'{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},'
                          b'"rangeLength":0,', b"{"),  # a whole-text change
    ]:  # fmt: skip
        assert change_from_bytes(body) is None, body


def test_the_reader_tells_when_the_next_header_is_already_in() -> None:
    read, write = os.pipe()
    message = b"Content-Length: %d\r\n\r\n" % len(KEYSTROKE) + KEYSTROKE
    os.write(write, message * 2 + message[:10])
    reader = FdReader(read)
    try:
        assert not reader.has_header()  # nothing read yet
        line = reader.readline()
        assert line.startswith(b"Content-Length") and reader.readline() == b"\r\n"
        reader.read(len(KEYSTROKE))
        assert reader.has_header()  # the second message came in the same read
        reader.readline(), reader.readline(), reader.read(len(KEYSTROKE))
        assert not reader.has_header()  # only part of the third one's header
    finally:
        os.close(read)
        os.close(write)


def test_keystrokes_behind_a_big_open_of_their_document_wait_for_it(tmp_path: Path) -> None:
    """The `didOpen` (over `BIG` bytes: decoded in a thread of its own) and a burst of
    keystrokes of it sent back to back, then a hover: the keystrokes apply to the opened
    text, in order, and the last diagnostics are the CLI's of the edited text."""
    lines, _ = generate_run("rag25", 40, 5)
    block = "\n".join(lines) + "\n"
    text = block * (BIG // len(block.encode()) + 1)
    client, uri, run = opened_run(tmp_path, text)
    try:
        at = text.index('"text": "') + len('"text": "')  # in the first line, ASCII before it
        version = 1
        for k in range(60):  # "a" and "b" typed, then deleted again, fifteen times
            version += 1
            ch, typed = [(at, "a"), (at + 1, "b"), (at + 1, ""), (at, "")][k % 4]
            end = ch + (not typed)
            client.change(uri, version, [position_change(0, ch, end, typed)])
        version += 1
        client.change(uri, version, [position_change(0, at, at, "ab")])
        edited = text[:at] + "ab" + text[at:]
        run.write_text(edited, encoding="utf-8")
        got = client.diagnostics(uri, version, 120)
        assert json_tuples(got) == expected_diagnostics(run, edited, "utf-16")
    finally:
        assert client.close(120) == 0
