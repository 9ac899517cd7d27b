"""The first document checked before the server is loaded (runtime/early_check.py): when
the `initialize` answer comes from the start-up cache and a `didOpen` follows, its
diagnostics are the CLI's, published once, and the server then carries on from that
check (an edit is checked and re-rendered as always). What the early check leaves to the
server (a client that pulls, a project that checks support, a settings problem, a
`didOpen` after another message, one that comes after the wait) gets the answers it always got. Real server processes over
stdio; the read-ahead itself on byte streams."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from citelens_server.runtime.early_answer import EarlyAnswer, answer_key
from tests.helpers.lsp_session import expected_diagnostics, json_tuples
from tests.helpers.raw_client import RawClient, frame, position_change
from tests.helpers.report_factory import generate_run

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]

EARLY = "checked before the server loaded"
PULL = {"textDocument": {"diagnostic": {}}}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A participant's folder with a rag25 run of 600 reports with mistakes (enough for the
    first check to fork)."""
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", 600, 11)
    (folder / "run.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _client(cache: Path, folder: Path, capabilities: dict | None = None) -> RawClient:
    client = RawClient(env={"CITELENS_CACHE_DIR": str(cache)}, cwd=folder)
    client.initialize(folder, capabilities)
    return client


def _log(client: RawClient) -> str:
    return b"".join(client.stderr).decode("utf-8", "replace")


def _kept_answer(cache: Path, folder: Path, capabilities: dict | None = None) -> None:
    """A first start: the `initialize` answer is kept for the next one."""
    client = _client(cache, folder, capabilities)
    assert client.close() == 0
    assert list((cache / "server").glob("initialize-*.json"))


def test_the_first_document_is_checked_before_the_server_loads_and_published_once(
    tmp_path: Path, repo: Path
) -> None:
    cache = tmp_path / "cache"
    _kept_answer(cache, repo)
    run = repo / "run.jsonl"
    text = run.read_text(encoding="utf-8")
    client = _client(cache, repo)
    try:
        uri = client.open(run, text)
        first = client.diagnostics(uri, 1)
        assert json_tuples(first) == expected_diagnostics(run, text, "utf-16")
        # the server carries on from that check: an edit breaks the first report's JSON
        client.change(uri, 2, [position_change(0, 0, 0, "x")])
        edited = client.diagnostics(uri, 2)
        run.write_text("x" + text, encoding="utf-8")
        assert json_tuples(edited) == expected_diagnostics(run, "x" + text, "utf-16")
        assert "json_syntax" in {d["code"] for d in edited}
        hover = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}},
        )
        assert "error" not in hover
        again = [
            m
            for m in client.received
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1
        ]
        assert again == []  # not published a second time by the server
    finally:
        client.close()
    assert EARLY in _log(client)


def _one_session(cache: Path, folder: Path, capabilities: dict | None = None, wait: float = 0.0) -> tuple:
    run = folder / "run.jsonl"
    text = run.read_text(encoding="utf-8")
    client = _client(cache, folder, capabilities)
    try:
        time.sleep(wait)
        uri = client.open(run, text)
        if capabilities is PULL:
            answer = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=60)
            diags = answer["result"]["items"]
        else:
            diags = client.diagnostics(uri, 1, timeout=60)
    finally:
        client.close()
    return json_tuples(diags), _log(client)


@pytest.mark.parametrize(
    ("case", "settings", "capabilities", "wait"),
    [
        ("pull", 'spec = "rag25"\n', PULL, 0.0),
        ("support", 'spec = "rag25"\nsupport = true\n', None, 0.0),
        ("settings problem", 'spec = "rag52"\n', None, 0.0),
    ],
)
def test_what_the_early_check_leaves_gets_the_answers_it_always_got(
    tmp_path: Path, repo: Path, case: str, settings: str, capabilities: dict | None, wait: float
) -> None:
    (repo / "citelens.toml").write_text(settings, encoding="utf-8")
    cold = _one_session(tmp_path / "cold", repo, capabilities, wait)  # no kept answer: no early check
    cache = tmp_path / "cache"
    _kept_answer(cache, repo, capabilities)
    diags, log = _one_session(cache, repo, capabilities, wait)
    assert diags == cold[0]
    assert EARLY not in log and EARLY not in cold[1]
    if case == "settings problem":
        assert [d[0] for d in diags] == ["settings"]


def _early(tmp_path: Path, messages: list[dict]) -> tuple[EarlyAnswer, bytes, io.BytesIO]:
    params = {"processId": None, "rootUri": None, "capabilities": {}}
    key = answer_key(params)
    (tmp_path / f"initialize-{key}.json").write_text(json.dumps({"capabilities": {}}), encoding="utf-8")
    data = frame({"id": 1, "method": "initialize", "params": params}) + b"".join(map(frame, messages))
    out = io.BytesIO()
    return EarlyAnswer(io.BytesIO(data), out, tmp_path), data, out


def _open(uri: str) -> dict:
    return {"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "text": "{}"}}}


def test_the_read_ahead_finds_the_didopen_and_hands_every_byte_to_the_server(tmp_path: Path) -> None:
    later = {"id": 2, "method": "textDocument/hover", "params": {}}
    early, data, out = _early(tmp_path, [{"method": "initialized", "params": {}}, _open("file:///a"), later])
    early.start()
    assert early.answered(5)
    assert json.loads(out.getvalue().split(b"\r\n\r\n", 1)[1])["id"] == 1  # answered early
    opened = early.wait_for_open(5)
    assert opened is not None and opened["params"]["textDocument"]["uri"] == "file:///a"
    assert early.stdin_for_server().read(len(data) + 10) == data


def test_a_held_answer_waits_for_release_and_gives_its_params_before(tmp_path: Path) -> None:
    """`__main__` loads the engine and makes the session while the answer is held: the
    params are there for it before anything is written, and the answer goes on release."""
    early, _, out = _early(tmp_path, [{"method": "initialized", "params": {}}])
    early.hold_s = 30.0
    early.start()
    params = early.pending(5)
    assert params == {"processId": None, "rootUri": None, "capabilities": {}}
    assert not early.answered(0.05) and out.getvalue() == b""  # held
    early.release()
    assert early.answered(5)
    assert json.loads(out.getvalue().split(b"\r\n\r\n", 1)[1])["id"] == 1


def test_a_held_answer_is_written_when_the_hold_ends_without_release(tmp_path: Path) -> None:
    early, _, out = _early(tmp_path, [])
    early.hold_s = 0.05
    early.start()
    assert early.answered(5)  # no release: written after hold_s
    assert json.loads(out.getvalue().split(b"\r\n\r\n", 1)[1])["id"] == 1


def test_nothing_is_pending_when_no_answer_is_kept(tmp_path: Path) -> None:
    params = {"processId": None, "rootUri": None, "capabilities": {}}
    data = frame({"id": 1, "method": "initialize", "params": params})
    early = EarlyAnswer(io.BytesIO(data), io.BytesIO(), tmp_path, hold_s=30.0)  # no kept answer
    early.start()
    assert early.pending(5) is None
    assert not early.answered(5)


def test_any_other_message_before_a_didopen_ends_the_read_ahead(tmp_path: Path) -> None:
    hover = {"id": 2, "method": "textDocument/hover", "params": {}}
    early, data, _ = _early(tmp_path, [hover, _open("file:///a")])
    early.start()
    assert early.wait_for_open(5) is None
    assert early.stdin_for_server().read(len(data) + 10) == data


def test_a_didopen_after_the_wait_is_left_to_the_server_with_every_byte(tmp_path: Path) -> None:
    """The late `didOpen` of an editor that sends it after `OPEN_WAIT_S`: written here only
    once the wait has ended (no timing involved), it is not taken by the early check, and
    the server reads it, and everything before it, unchanged."""
    import os
    import threading

    from citelens_server.runtime.fd_reader import FdReader

    params = {"processId": None, "rootUri": None, "capabilities": {}}
    (tmp_path / f"initialize-{answer_key(params)}.json").write_text(
        json.dumps({"capabilities": {}}), encoding="utf-8"
    )
    head = frame({"id": 1, "method": "initialize", "params": params}) + frame(
        {"method": "initialized", "params": {}}
    )
    late = frame(_open("file:///a"))
    read_fd, write_fd = os.pipe()
    os.write(write_fd, head)
    early = EarlyAnswer(FdReader(read_fd), io.BytesIO(), tmp_path)
    early.start()
    assert early.answered(5)
    assert early.wait_for_open(0.05) is None  # nothing came within the wait
    os.write(write_fd, late)  # the editor's didOpen, after the wait
    os.close(write_fd)
    got = bytearray()
    stdin = early.stdin_for_server()
    reader = threading.Thread(target=lambda: got.extend(stdin.read(len(head) + len(late))))
    reader.start()
    reader.join(10)
    assert bytes(got) == head + late
    os.close(read_fd)


def test_the_early_check_loads_neither_asyncio_nor_lsprotocol() -> None:
    """What `__main__` imports before the first check: asyncio alone (ssl, sockets,
    subprocesses) costs about 50 ms, and the editor's `didOpen` waits for every import."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "import citelens_server.runtime.early_answer, citelens_server.runtime.start_cache\n"
        "import citelens_server.runtime.fd_reader, citelens_server.runtime.early_check\n"
        "from citelens_server.runtime import early_check\n"
        "early_check._load()\n"
        "import citelens_server.runtime.first_check, citelens_server.runtime.run_detection\n"
        "import citelens.session.first_check, citelens_server.runtime.editor_settings\n"
        "print(sorted(m for m in ('asyncio', 'lsprotocol', 'lsprotocol.types', 'pygls.server') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
