"""A burst of edits sent without waiting (they are applied in batches: change_queue.py):
hovers between them see the text of their own version, the last version's diagnostics
are published and no older version's after a newer one, and an edit that cannot apply
inside a batch still resyncs the document from disk."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from citelens_server.runtime.change_queue import QUIET_MAX_S, QUIET_S, ChangeQueue
from tests.helpers.raw_client import RawClient, position_change
from tests.helpers.report_factory import generate_run

PUSH: dict[str, Any] = {
    "textDocument": {"publishDiagnostics": {"versionSupport": True}, "hover": {"contentFormat": ["markdown"]}}
}
EDITS = 120
HOVER_EVERY = 7


def _client(tmp_path: Path) -> RawClient:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    client = RawClient()
    client.initialize(tmp_path, PUSH)
    return client


def _run() -> str:
    clean, _ = generate_run("rag25", 2, 5, fault_free=True)
    faulty, _ = generate_run("rag25", 3, 1)
    return "\n".join([clean[0], *faulty]) + "\n"


def _opened(tmp_path: Path) -> tuple[RawClient, str, str]:
    """(client, uri, text) of a run written to disk, opened and checked once."""
    text = _run()
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    client = _client(tmp_path)
    uri = client.open(path, text)
    client.diagnostics(uri, 1)
    return client, uri, text


def _sentence_start(line: str) -> int:
    """A character inside the first sentence's text (ASCII: UTF-16 units are code points)."""
    return line.index('"text": "') + len('"text": "') + 2


def _hover(client: RawClient, uri: str, character: int) -> int:
    return client.request_id(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": character}}
    )


def _published(client: RawClient, uri: str) -> list[int]:
    return [
        m["params"].get("version")
        for m in client.received
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]


def test_hovers_in_a_burst_see_their_version_and_the_last_diagnostics_win(tmp_path: Path) -> None:
    client, uri, text = _opened(tmp_path)
    try:
        at = _sentence_start(text.split("\n")[0])
        first = client.answer(_hover(client, uri, at))["result"]["range"]
        end = first["end"]["character"]
        hovers: dict[int, int] = {}  # request id -> characters inserted before it
        version = 1
        for k in range(EDITS):
            version += 1
            client.change(uri, version, [position_change(0, at, at, "z")])  # the sentence grows
            version += 1  # and the next line's offsets move: converted through the edited index
            client.change(uri, version, [position_change(1, 1, 1, " ")])
            if k % HOVER_EVERY == 0:
                hovers[_hover(client, uri, at)] = k + 1
        final = client.diagnostics(uri, version, timeout=60)
        for msg_id, inserted in hovers.items():
            answer = client.answer(msg_id, timeout=60)["result"]
            assert answer["range"]["start"] == first["start"]
            assert answer["range"]["end"]["character"] == end + inserted, inserted
        seen = _published(client, uri) + [version]
        assert seen == sorted(seen)  # never an older version after a newer one
        edited = text.split("\n")
        edited[0] = edited[0][:at] + "z" * EDITS + edited[0][at:]
        edited[1] = edited[1][:1] + " " * EDITS + edited[1][1:]
        assert final == _fresh_diagnostics(client, tmp_path, "\n".join(edited), uri)
    finally:
        assert client.close() == 0


def test_an_edit_that_cannot_apply_inside_a_batch_resyncs(tmp_path: Path) -> None:
    client, uri, text = _opened(tmp_path)
    try:
        past_end = {
            "range": {"start": {"line": 40, "character": 0}, "end": {"line": 41, "character": 0}},
            "text": "y",
        }
        at = _sentence_start(text.split("\n")[0])
        client.change(uri, 2, [position_change(0, 0, 0, "x")])  # breaks the first report's JSON
        client.change(uri, 3, [past_end])  # cannot apply: the text on disk is read again
        client.change(uri, 4, [position_change(0, at, at, "q")])  # applies to the text on disk
        last = client.diagnostics(uri, 4, timeout=60)
        warned = client.wait_for(
            lambda m: m.get("method") == "window/logMessage" and "cannot apply" in m["params"]["message"]
        )
        assert "40:0-41:0" in warned["params"]["message"]
        lines = text.split("\n")
        lines[0] = lines[0][:at] + "q" + lines[0][at:]
        assert last == _fresh_diagnostics(client, tmp_path, "\n".join(lines), uri)
    finally:
        assert client.close() == 0


def _fresh_diagnostics(client: RawClient, tmp_path: Path, text: str, uri: str) -> list[Any]:
    """The diagnostics of `text` opened afresh as a twin file, named as `uri`'s."""
    twin = tmp_path / "twin.jsonl"
    twin.write_text(text, encoding="utf-8")
    twin_uri = client.open(twin, text)
    expected = client.diagnostics(twin_uri, 1)
    return list(json.loads(json.dumps(expected).replace(twin_uri, uri)))


@pytest.mark.parametrize("others", [0, 3])
def test_waiting_edits_are_applied_in_one_batch(others: int) -> None:
    applied: list[tuple[str, list[Any]]] = []

    async def burst() -> None:
        queue = ChangeQueue(lambda exc: None)
        for i in range(5):
            queue.add("file:///a", i, lambda uri, batch: applied.append((uri, batch)))
        for i in range(others):
            queue.add("file:///b", i, lambda uri, batch: applied.append((uri, batch)))
        assert applied == [] and queue.pending("file:///a")
        await asyncio.sleep(0)  # the loop handles what waited, then the batch applies

    asyncio.run(burst())
    assert applied[0] == ("file:///a", [0, 1, 2, 3, 4])
    assert applied[1:] == ([("file:///b", list(range(others)))] if others else [])


def test_a_flush_before_another_message_applies_what_waited_first() -> None:
    applied: list[list[Any]] = []

    async def burst() -> None:
        queue = ChangeQueue(lambda exc: None)
        queue.add("file:///a", 1, lambda uri, batch: applied.append(batch))
        queue.flush()  # a hover arrives: the edit before it is applied now
        queue.add("file:///a", 2, lambda uri, batch: applied.append(batch))
        await asyncio.sleep(QUIET_S * 3)

    asyncio.run(burst())
    assert applied == [[1], [2]]


def test_edits_right_after_a_batch_wait_for_a_pause_and_no_longer_than_the_most() -> None:
    """Edits on the heels of a batch (a burst) are applied once none has come for
    `QUIET_S`, and at the latest `QUIET_MAX_S` after the first of them: not one batch per
    turn of the loop. After a pause the first edit goes at once."""
    applied: list[tuple[float, list[Any]]] = []

    async def burst() -> None:
        loop = asyncio.get_running_loop()
        queue = ChangeQueue(lambda exc: None)

        def apply(uri: str, batch: list[Any]) -> None:
            applied.append((loop.time(), batch))

        queue.add("file:///a", 0, apply)
        await asyncio.sleep(0)
        assert [b for _, b in applied] == [[0]]  # after a pause: at once
        queue.add("file:///a", 1, apply)  # right after that batch: waits for a pause
        await asyncio.sleep(0)
        assert [b for _, b in applied] == [[0]]
        await asyncio.sleep(QUIET_S * 3)
        assert [b for _, b in applied] == [[0], [1]]
        await asyncio.sleep(QUIET_S * 3)
        start, n = loop.time(), 2
        queue.add("file:///a", 2, apply)  # after a pause again: the burst's first at once
        while loop.time() - start < QUIET_MAX_S * 1.5:  # then a keystroke every QUIET_S / 4
            await asyncio.sleep(QUIET_S / 4)
            n += 1
            queue.add("file:///a", n, apply)
        await asyncio.sleep(QUIET_S * 3)
        assert [x for _, b in applied for x in b] == list(range(n + 1))  # all, in order
        waited = [t for t, b in applied if b[0] == 3]  # the batch after the burst's first
        assert waited and waited[0] - start <= QUIET_MAX_S + 0.05  # never longer than the most

    asyncio.run(burst())


def test_edits_in_place_each_get_their_diagnostics_in_order(tmp_path: Path) -> None:
    """Every version an editor waits for is published once, in order, and a hover after
    each edit sees it; the last diagnostics are a fresh check's, a report broken and
    mended on the way."""
    client, uri, text = _opened(tmp_path)
    try:
        at = _sentence_start(text.split("\n")[0])
        end = client.answer(_hover(client, uri, at))["result"]["range"]["end"]["character"]
        edits = [(0, at, at, "w"), (1, 0, 0, "{"), (1, 0, 1, ""), (0, at, at, "w")]
        published: list[int] = []
        for version, (line, start, stop, new) in enumerate(edits, 2):
            client.change(uri, version, [position_change(line, start, stop, new)])
            hover = client.answer(_hover(client, uri, at), timeout=60)["result"]
            assert hover["range"]["end"]["character"] == end + (2 if version == 5 else 1)
            final = client.diagnostics(uri, version, timeout=60)
            published += _published(client, uri) + [version]  # any other publish came first
        assert published == [2, 3, 4, 5]
        edited = text.split("\n")
        edited[0] = edited[0][:at] + "ww" + edited[0][at:]
        assert final == _fresh_diagnostics(client, tmp_path, "\n".join(edited), uri)
    finally:
        assert client.close() == 0


def _params(*changes: dict[str, Any]) -> Any:
    from lsprotocol import types

    from citelens_server.runtime.change_params import change_params

    params = change_params(
        {"textDocument": {"uri": "file:///a", "version": 2}, "contentChanges": list(changes)}
    )
    assert isinstance(params, types.DidChangeTextDocumentParams)
    return params


@pytest.mark.parametrize(
    ("change", "line_2_kept"),
    [
        (position_change(1, 0, 3, "abc"), True),  # another line, typed over: line 2 reads the same
        (position_change(2, 0, 0, "a"), False),  # the hover's own line
        (position_change(1, 0, 0, "a\n"), False),  # a line break typed: line 2 moves down
        (position_change(0, 5, 5, "\r"), False),
        (
            {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 1, "character": 0}}, "text": ""},
            False,
        ),
        ({"text": "a whole new text"}, False),
    ],
)
def test_a_hover_is_answered_before_waiting_edits_only_when_its_line_reads_the_same(
    change: dict[str, Any], line_2_kept: bool
) -> None:
    async def burst() -> bool:
        queue = ChangeQueue(lambda exc: None)
        assert not queue.keeps_line("file:///a", 2)  # nothing waits: nothing to keep
        queue.add("file:///a", _params(position_change(0, 1, 1, "x")), lambda uri, batch: None)
        queue.add("file:///a", _params(change), lambda uri, batch: None)
        kept = queue.keeps_line("file:///a", 2)
        queue.flush()
        assert not queue.keeps_line("file:///a", 2)  # applied: what waited is forgotten
        return kept

    assert asyncio.run(burst()) is line_2_kept


def test_a_hover_between_edits_of_other_lines_sees_its_line_as_the_client_does(tmp_path: Path) -> None:
    """Edits of line 1 then a hover on line 0, sent without waiting, again and again: each
    hover is answered before or after the waiting edits, and always as on a fresh check
    of the text it was sent after (its range on its line; its findings)."""
    client, uri, text = _opened(tmp_path)
    try:
        at = _sentence_start(text.split("\n")[0])
        alone = client.answer(_hover(client, uri, at))["result"]
        version = 1
        ids = []
        for _ in range(60):
            version += 1
            client.change(uri, version, [position_change(1, 1, 1, " ")])
            ids.append(_hover(client, uri, at))
        client.diagnostics(uri, version, timeout=60)
        for msg_id in ids:
            assert client.answer(msg_id, timeout=60)["result"] == alone
    finally:
        assert client.close() == 0


def test_a_hover_asked_again_is_the_same_until_its_text_changes(tmp_path: Path) -> None:
    """The last hover is kept with the result it was made from (features/hover.py): asked
    again at the same place it is the same; after an edit of its sentence, the new one
    (its evidence too: the cited documents are in the report, so the hover is kept)."""
    clean, _ = generate_run("rag25", 1, 2, fault_free=True)
    report = json.loads(clean[0])
    cited = [c for s in report["answer"] for c in s["citations"]]
    refs = report["references"]
    ids = [refs[c] if isinstance(c, int) else c for c in cited]
    words = " ".join(s["text"] for s in report["answer"])
    report["documents"] = {i: {"id": i, "title": "T", "text": words + " More words."} for i in ids}
    text = json.dumps(report) + "\n"
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    client = _client(tmp_path)
    try:
        uri = client.open(path, text)
        client.diagnostics(uri, 1)
        at = _sentence_start(text)
        first = client.answer(_hover(client, uri, at))["result"]
        assert "supported" in first["contents"]["value"]  # the evidence is shown
        assert client.answer(_hover(client, uri, at))["result"] == first
        client.change(uri, 2, [position_change(0, at, at, "qzx ")])
        grown = client.answer(_hover(client, uri, at), timeout=60)["result"]
        assert grown["range"]["end"]["character"] == first["range"]["end"]["character"] + 4
        assert grown["contents"] != first["contents"]  # "qzx" is not in the documents
        client.change(uri, 3, [position_change(0, at, at + 4, "")])
        assert client.answer(_hover(client, uri, at), timeout=60)["result"] == first
    finally:
        assert client.close() == 0
