"""A big run over the real stdio transport (runtime/stdio.py): read and decoded in a
reader thread (in pieces), checked in a worker, its diagnostics written by the writer
thread. Its findings equal the CLI's; another file's hover is answered while it is read
and checked, and while an edit of it is checked; the transport keeps messages whole and
in order, and a client slow to read does not stop the server."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from tests.helpers.lsp_session import expected_diagnostics, json_tuples
from tests.helpers.raw_client import RawClient, opened_run
from tests.helpers.report_factory import generate_run

SMALL = '{"metadata": {"run_id": "r"}, "answer": []}\n'


def _big_run(min_bytes: int) -> str:
    """A rag25 run with seeded faults, repeated past `min_bytes`, whose text needs escapes
    in the message: non-ASCII, an astral character (a surrogate pair in JSON and UTF-16),
    quotes, backslashes."""
    lines, _ = generate_run("rag25", 300, 5)
    block = "\n".join(lines) + "\n"
    block = block.replace('"text": "', '"text": "caf\u00e9 \U0001f600 \\"q\\" \\\\ ', 40)
    return block * (min_bytes // len(block.encode()) + 1)


def _hover(client: RawClient, uri: str) -> int:
    return client.request_id(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}
    )


@pytest.mark.slow
def test_a_big_run_is_checked_as_the_cli_checks_it_and_never_holds_up_another_file(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    small.write_text(SMALL, encoding="utf-8")
    text = _big_run(6_000_000)  # past the sizes that go piecewise and pause the collector
    big.write_text(text, encoding="utf-8")
    client = RawClient(cwd=tmp_path)
    try:
        client.initialize(tmp_path)
        small_uri = client.open(small, SMALL)
        client.diagnostics(small_uri, 1)
        big_uri = client.open(big, text)
        hover = _hover(client, small_uri)  # behind 6 MB of didOpen in the same pipe
        message = client.wait_for(
            lambda m: (
                m.get("id") == hover
                or (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == big_uri)
            ),
            120,
        )
        assert message.get("id") == hover, "the big file's diagnostics came before the small file's hover"
        assert json_tuples(client.diagnostics(big_uri, 1, 120)) == expected_diagnostics(big, text, "utf-16")

        # an edit of the big file (a character inserted in its first line) is checked in a
        # worker too: a hover on the small file sent right after it is answered first
        client.change(
            big_uri,
            2,
            [
                {
                    "range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}},
                    "text": " ",
                }
            ],
        )
        hover = _hover(client, small_uri)
        message = client.wait_for(
            lambda m: (
                m.get("id") == hover
                or (m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 2)
            ),
            120,
        )
        assert message.get("id") == hover, "the edit's diagnostics came before the small file's hover"
        edited = text[:1] + " " + text[1:]
        big.write_text(edited, encoding="utf-8")
        assert json_tuples(client.diagnostics(big_uri, 2, 120)) == expected_diagnostics(big, edited, "utf-16")

        # edits sent back to back (each applied in a worker, the next one waiting for it)
        # end in the text the client holds
        at = {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 2}}
        client.change(big_uri, 3, [{"range": at, "text": ""}])
        client.change(big_uri, 4, [{"range": {"start": at["start"], "end": at["start"]}, "text": "ab"}])
        edited = text[:1] + "ab" + text[1:]
        big.write_text(edited, encoding="utf-8")
        assert json_tuples(client.diagnostics(big_uri, 4, 120)) == expected_diagnostics(big, edited, "utf-16")
    finally:
        assert client.close(120) == 0


def test_the_reader_frames_messages_as_pygls_does() -> None:
    """Headers in any order, a Content-Type, a header block without a length (skipped), a
    body split across reads, and a body bigger than the read buffer."""
    from citelens_server.runtime.fd_reader import FdReader
    from citelens_server.runtime.stdio import frames

    big = json.dumps({"text": "x" * 300_000}).encode()
    stream = (
        b"Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
        b"Content-Type: x\r\n\r\n"
        b"Content-Type: x\r\nContent-Length: 7\r\n\r\n[1,2,3]"
        + b"Content-Length: %d\r\n\r\n" % len(big)
        + big
    )
    read_end, write_end = os.pipe()

    def feed() -> None:
        for i in range(0, len(stream), 1000):  # in small writes: bodies arrive in pieces
            os.write(write_end, stream[i : i + 1000])
        os.close(write_end)

    threading.Thread(target=feed, daemon=True).start()
    try:
        bodies = [bytes(b) for b in frames(FdReader(read_end), threading.Event())]
    finally:
        os.close(read_end)
    assert bodies == [b"{}", b"[1,2,3]", big]


def test_a_big_body_is_read_whole_into_a_buffer_not_zeroed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """From `UNZEROED` bytes the body's buffer is made without zeroing it (CPython): the
    body still reads back exactly, a short stream is cut to what came (no unwritten byte
    is ever returned), and small bodies take `bytearray(n)` as before."""
    from citelens_server.runtime import fd_reader
    from citelens_server.runtime.fd_reader import UNZEROED, FdReader

    made: list[int] = []
    maker = fd_reader._unzeroed_maker()
    if maker is not None:  # CPython: the buffer comes from the C API, uninitialised
        fresh = maker(UNZEROED)
        assert type(fresh) is bytearray and len(fresh) == UNZEROED
        monkeypatch.setattr(fd_reader, "_unzeroed_maker", lambda: lambda n: made.append(n) or maker(n))
    body = bytes(range(256)) * (UNZEROED // 256 + 3)

    def read_back(data: bytes, n: int) -> bytes:
        read_end, write_end = os.pipe()

        def feed() -> None:
            for i in range(0, len(data), 1 << 16):
                os.write(write_end, data[i : i + (1 << 16)])
            os.close(write_end)

        threading.Thread(target=feed, daemon=True).start()
        try:
            reader = FdReader(read_end)
            head = reader.readline()
            return head + bytes(reader.read(n))
        finally:
            os.close(read_end)

    assert read_back(b"H\n" + body, len(body)) == b"H\n" + body
    short = body[: UNZEROED + 10]  # the stream ends before the length it announced
    assert read_back(b"H\n" + short, len(body)) == b"H\n" + short
    assert read_back(b"H\n" + b"small", 5) == b"H\nsmall"
    if maker is not None:
        assert made == [len(body), len(body)]  # the two big reads, not the small one


def test_the_writer_keeps_order_and_does_not_wait_for_a_slow_client() -> None:
    """A big message is handed to the writer thread: the caller goes on while the client
    has not read a byte, and what follows it is written after it, whole."""
    from citelens_server.runtime.stdio import BIG_WRITE, ThreadedWriter

    read_end, write_end = os.pipe()
    out = os.fdopen(write_end, "wb", buffering=0)
    writer = ThreadedWriter(out)
    big = "y" * (BIG_WRITE * 3)  # far more than a pipe holds: a plain write would block
    wrote = threading.Event()

    def loop() -> None:  # what the event loop does: write, write, and carry on
        writer.write_parts((b"A:", big))
        writer.write(b"B")
        writer.write_parts((b"C:", "z" * 10))
        wrote.set()

    threading.Thread(target=loop, daemon=True).start()
    assert wrote.wait(30), "writing blocked while the client was not reading"
    received = bytearray()
    with os.fdopen(read_end, "rb") as inp:
        closer = threading.Thread(target=writer.close)
        closer.start()
        while chunk := inp.read(1 << 16):
            received += chunk
        closer.join(30)
    assert bytes(received) == b"A:" + big.encode() + b"B" + b"C:" + b"z" * 10


def test_messages_are_structured_as_json_loads_with_the_hook_would() -> None:
    from citelens_server.runtime.stdio import structured

    body = '{"a": [{"b": {"c": 1}}, 2, {"d": []}], "e": {"f": {}}}'
    tag = lambda d: ("obj", sorted(d))  # noqa: E731
    assert structured(tag, json.loads(body)) == json.loads(body, object_hook=tag)


def test_only_a_message_about_another_named_document_goes_ahead_of_a_big_one() -> None:
    from citelens_server.runtime.message_order import MessageOrder, head_uri

    handled: list[str] = []
    order = MessageOrder(handled.append)
    big_body = b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///b\\u00e9.jsonl","text":"..."}}}'
    big = head_uri(big_body)
    assert big == "file:///b\u00e9.jsonl"
    order.expect(0, big)  # the big didOpen, still being decoded
    order.arrive(1, "file:///small.jsonl", "hover small")  # another document: goes ahead
    order.arrive(2, big, "hover big")  # the same document: waits
    order.arrive(3, None, "settings change")  # not about one document: waits
    order.arrive(4, "file:///other.jsonl", "hover other")  # behind a waiting settings change
    assert handled == ["hover small"]
    order.arrive(0, big, "didOpen big")
    assert handled == ["hover small", "didOpen big", "hover big", "settings change", "hover other"]
    assert head_uri(b'{"params":{"textDocument":{"languageId":"jsonl","uri":"file:///x"}}}') is None


def test_a_run_whose_first_check_is_forked_gets_the_cli_s_diagnostics(tmp_path: Path) -> None:
    """From `FORK_REPORTS` reports the first check of an opened run is split over processes
    (as many as the cores, up to `CHECK_PROCESSES`); the diagnostics are the CLI's, and an
    edit afterwards is re-checked as in a run checked in one process."""
    from citelens_server.runtime.first_check import FORK_REPORTS

    lines, _ = generate_run("rag25", FORK_REPORTS + 100, 5)
    text = "\n".join(lines) + "\n"
    client, uri, run = opened_run(tmp_path, text)
    try:
        assert json_tuples(client.diagnostics(uri, 1, 120)) == expected_diagnostics(run, text, "utf-16")
        at = {"start": {"line": 3, "character": 1}, "end": {"line": 3, "character": 1}}
        client.change(uri, 2, [{"range": at, "text": " "}])
        lines[3] = lines[3][:1] + " " + lines[3][1:]
        edited = "\n".join(lines) + "\n"
        run.write_text(edited, encoding="utf-8")
        assert json_tuples(client.diagnostics(uri, 2, 120)) == expected_diagnostics(run, edited, "utf-16")
    finally:
        assert client.close(120) == 0
