"""The `initialize` answer written before the server loads (runtime/early_answer.py) is the
server's own answer: a start from the kept answer says and does what a start without it
does, each client's capabilities get their own answer, an out-of-date kept answer is
replaced by the real one, and what is read ahead still reaches the server intact."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from citelens_server.runtime.early_answer import EarlyAnswer, Prefixed, answer_key, read_message
from tests.helpers.lsp_session import SERVER_COMMAND, cli_findings
from tests.helpers.raw_client import frame, read_framed

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]

PUSH: dict = {}
PULL = {"textDocument": {"diagnostic": {}}}
_DEEP = b"Content-Length: 200000\r\n\r\n" + b"[" * 200_000


def _initialize(capabilities: dict) -> dict:
    return {"processId": None, "rootUri": None, "capabilities": capabilities}


def _run(tmp_path: Path) -> tuple[Path, str]:
    run = tmp_path / "run.jsonl"
    report = {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "narrative_id": "1"},
        "references": ["msmarco_v2.1_doc_00_0#0"],
        "answer": [{"text": "A sentence.", "citations": [3]}],
    }
    text = json.dumps(report) + "\n"
    run.write_text(text, encoding="utf-8")
    return run, text


def _session(cache_dir: Path, tmp_path: Path, capabilities: dict) -> tuple[dict, list[dict], str]:
    """initialize (answer), initialized, open the run, its diagnostics, shut down; and the
    server's log."""
    run, text = _run(tmp_path)
    uri = run.as_uri()
    pull = "diagnostic" in capabilities.get("textDocument", {})
    messages = [
        {"id": 1, "method": "initialize", "params": _initialize(capabilities)},
        {"method": "initialized", "params": {}},
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "jsonl", "version": 1, "text": text}},
        },
    ]
    if pull:
        messages.append(
            {"id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}}
        )
    env = {**os.environ, "CITELENS_CACHE_DIR": str(cache_dir)}
    log = tmp_path / "server.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env, cwd=tmp_path
        )
        try:
            proc.stdin.write(b"".join(frame(m) for m in messages))
            proc.stdin.flush()
            answer = read_framed(proc.stdout)
            while True:
                message = read_framed(proc.stdout)
                if message.get("method") == "workspace/configuration":
                    items = message["params"]["items"]
                    proc.stdin.write(frame({"id": message["id"], "result": [None] * len(items)}))
                    proc.stdin.flush()
                if pull and message.get("id") == 2 and "method" not in message:
                    diagnostics = message["result"]["items"]
                    break
                if not pull and message.get("method") == "textDocument/publishDiagnostics":
                    diagnostics = message["params"]["diagnostics"]
                    break
            proc.stdin.write(frame({"id": 3, "method": "shutdown"}) + frame({"method": "exit"}))
            proc.stdin.flush()
            proc.wait(60)
        finally:
            proc.kill()
    return answer, diagnostics, log.read_text(encoding="utf-8", errors="replace")


def _kept(cache: Path) -> list[Path]:
    return sorted((cache / "server").glob("initialize-*.json"))


@pytest.mark.parametrize("capabilities", [PUSH, PULL], ids=["push", "pull"])
def test_a_start_from_the_kept_answer_answers_and_checks_as_a_start_without_it(
    tmp_path: Path, capabilities: dict
) -> None:
    cache = tmp_path / "cache"
    first, first_diags, _ = _session(cache, tmp_path, capabilities)
    assert len(_kept(cache)) == 1  # the first start keeps its answer
    kept = json.loads(_kept(cache)[0].read_text(encoding="utf-8"))
    assert kept == first["result"]
    second, second_diags, _ = _session(cache, tmp_path, capabilities)
    assert second == first
    assert second_diags == first_diags
    codes = sorted(d["code"] for d in second_diags)
    run, _ = _run(tmp_path)
    assert codes == sorted(f["code"] for f in cli_findings(run))  # the CLI's findings
    assert ("diagnosticProvider" in first["result"]["capabilities"]) == (capabilities is PULL)


def test_each_client_capabilities_get_their_own_answer(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    push, _, _ = _session(cache, tmp_path, PUSH)
    pull, _, _ = _session(cache, tmp_path, PULL)
    assert len(_kept(cache)) == 2
    assert push["result"] != pull["result"]
    assert _session(cache, tmp_path, PULL)[0] == pull
    assert _session(cache, tmp_path, PUSH)[0] == push


def test_an_out_of_date_kept_answer_is_replaced_by_the_servers_own(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    real, real_diags, _ = _session(tmp_path / "fresh", tmp_path, PUSH)
    key = answer_key(_initialize(PUSH))  # this test runs the code the server runs
    assert key is not None
    (cache / "server").mkdir(parents=True)
    stale = {"capabilities": {"hoverProvider": False}, "serverInfo": {"name": "citelens", "version": "0"}}
    (cache / "server" / f"initialize-{key}.json").write_text(json.dumps(stale), encoding="utf-8")
    answer, diags, log = _session(cache, tmp_path, PUSH)
    assert answer["result"] == stale  # answered early, before the server could know better
    assert diags == real_diags  # the server itself is as always
    assert "out of date" in log
    assert _session(cache, tmp_path, PUSH)[0] == real  # the next start answers right


def test_an_unwritable_cache_directory_is_no_obstacle(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    real, real_diags, _ = _session(tmp_path / "fresh", tmp_path, PUSH)
    assert _session(blocker / "cache", tmp_path, PUSH)[:2] == (real, real_diags)


def test_what_is_read_ahead_reaches_the_server_unchanged() -> None:
    first = frame({"id": 1, "method": "initialize", "params": _initialize(PUSH)})
    rest = frame({"method": "initialized", "params": {}}) + b"Content-Length: 2\r\n\r\n{}"
    stream = io.BytesIO(first + rest)
    raw, message = read_message(stream)
    assert raw == first and message is not None and message["method"] == "initialize"
    again = Prefixed(raw, stream)  # read as pygls reads: headers by line, bodies by length
    assert read_framed(again) == json.loads(raw.split(b"\r\n\r\n", 1)[1])
    assert read_framed(again)["method"] == "initialized"
    assert read_framed(again) == {}
    assert again.readline() == b""


@pytest.mark.parametrize(
    "text",
    [b"", b"garbage\r\n\r\n", b"Content-Length: 5\r\n\r\n[1,2]", b"Content-Length: x\r\n\r\n{}", _DEEP],
    ids=["empty", "no-length", "not-an-object", "bad-length", "too-deep"],
)
def test_a_first_message_that_is_not_one_is_left_to_the_server(text: bytes, tmp_path: Path) -> None:
    out = io.BytesIO()
    early = EarlyAnswer(io.BytesIO(text), out, tmp_path)
    early.start()
    reader = early.stdin_for_server()
    assert out.getvalue() == b""  # nothing answered
    assert early.msg_id is None
    assert reader.read(len(text) + 100) == text  # the server reads (and judges) all of it


@pytest.mark.parametrize(
    "params",
    [
        None,
        [],
        {},
        {"capabilities": {}, "processId": "12"},
        {"capabilities": {}, "workspaceFolders": [{"uri": 1}]},
    ],
)
def test_parameters_that_would_get_an_error_are_never_answered_early(params: object) -> None:
    assert answer_key(params) is None


def test_the_key_is_the_client_capabilities_not_its_folders() -> None:
    base = answer_key(_initialize(PUSH))
    assert base is not None
    assert answer_key({**_initialize(PUSH), "rootUri": "file:///elsewhere", "processId": 7}) == base
    assert answer_key(_initialize(PULL)) != base
