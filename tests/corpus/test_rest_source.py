"""The REST source against a real Anserini RestServer, and against a small stand-in for what Anserini cannot show (tokens, retries)."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from citelens.corpus import open_sources
from citelens.corpus.rest_source import RestSource, ServiceOptions
from tests.helpers.anserini_server import refused_port, sample_documents

SEGMENT = "msmarco_v2.1_doc_00_378699409#2_708658780"
PARENT = "msmarco_v2.1_doc_00_378699409"


def test_anserini_finds_every_sample_including_ids_with_hash_and_odd_characters(anserini_url: str) -> None:
    docs = sample_documents()
    answer = RestSource(anserini_url).get_many([d["id"] for d in docs])
    assert not answer.unanswered
    for d in docs:
        found = answer.documents[d["id"]]
        assert found is not None, d["id"]
        assert found.id == d["id"] and found.text == d["contents"]
    # unencoded, the `#` would have become a fragment and the parent would have answered
    assert answer.documents[SEGMENT].text != answer.documents[PARENT].text


def test_anserini_404_is_absent_and_a_missing_segment_gets_its_parent_as_stand_in(anserini_url: str) -> None:
    missing_segment = f"{PARENT}#99_123"
    chain = open_sources([f"{anserini_url};cache=off"])
    answer = chain.get_many(["no-such-doc", missing_segment])
    assert answer.documents["no-such-doc"] is None and not answer.unanswered
    stand_in = answer.documents[missing_segment]
    assert stand_in is not None and stand_in.id == PARENT and stand_in.stands_in_for == missing_segment


def test_show_prints_a_document_from_anserini_and_says_when_a_parent_stands_in(anserini_url: str) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "citelens", "show", SEGMENT, "--docs", anserini_url],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert f"id:     {SEGMENT}" in shown.stdout and f"source: {anserini_url}" in shown.stdout
    stand_in = subprocess.run(
        [sys.executable, "-m", "citelens", "show", f"{PARENT}#42_1", "--docs", anserini_url, "--format", "json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    data = json.loads(stand_in.stdout)
    assert data["id"] == PARENT and data["stands_in_for"] == f"{PARENT}#42_1"


def test_fetched_documents_are_cached_so_an_offline_recheck_still_has_them(
    anserini_url: str, private_cache: Path
) -> None:
    first = RestSource(anserini_url).get_many([SEGMENT, "not-there"])
    assert first.documents[SEGMENT] is not None
    # the same service address, now unreachable: the cache answers
    port = int(anserini_url.split(":")[2].split("/")[0])
    cached = RestSource(anserini_url, options=ServiceOptions(timeout=0.5, retries=0))
    cached.base_url = anserini_url  # same cache key
    again = cached.get_many([SEGMENT, "not-there"])
    assert (
        again.documents[SEGMENT] is not None
        and again.documents[SEGMENT].text == first.documents[SEGMENT].text
    )
    assert "not-there" in again.documents and again.documents["not-there"] is None
    assert port > 0


def _count_requests(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The timeout of every request the source sends (the real request still goes out)."""
    from citelens.corpus import http_fetch

    sent: list[float] = []
    real = http_fetch._OPENER.open

    def counting(request, timeout):
        sent.append(timeout)
        return real(request, timeout=timeout)

    monkeypatch.setattr(http_fetch._OPENER, "open", counting)
    return sent


def test_an_unreachable_service_is_unanswered_at_once_with_the_reason(monkeypatch) -> None:
    options = ServiceOptions(timeout=2.0, retries=2, backoff=0.05, cache=False)
    sent = _count_requests(monkeypatch)
    with refused_port() as port:  # nothing listens there
        url = f"http://127.0.0.1:{port}/v1/idx"
        answer = RestSource(url, options=options).get_many([f"doc-{i}" for i in range(200)])
    assert len(answer.unanswered) == 200 and not answer.documents
    assert all("cannot reach" in why for why in answer.unanswered.values())
    # the first id that runs out of retries stops the rest: at most the attempts of the ids
    # already in flight (concurrency x (retries + 1)), not one round of retries per id
    assert 1 <= len(sent) <= options.concurrency * (options.retries + 1) < 200


def test_a_service_that_never_answers_is_asked_within_its_timeout_and_retries(monkeypatch) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(50)  # accepts connections, never answers
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1/idx"
    options = ServiceOptions(timeout=0.5, retries=1, backoff=0.05, cache=False)
    sent = _count_requests(monkeypatch)
    try:
        answer = RestSource(url, options=options).get_many([f"d{i}" for i in range(20)])
    finally:
        silent.close()
    assert len(answer.unanswered) == 20
    # no request waits longer than the timeout, and no id is asked more than retries + 1 times
    assert sent and max(sent) <= options.timeout
    assert len(sent) <= 20 * (options.retries + 1)


class _Recorder(BaseHTTPRequestHandler):
    """A stand-in service: records headers; answers by a script of statuses per id."""

    seen: ClassVar[list[dict[str, str]]] = []
    script: ClassVar[dict[str, list[int]]] = {}

    def do_GET(self) -> None:
        self.seen.append({"path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
        doc_id = self.path.rsplit("/doc/", 1)[-1]
        from urllib.parse import unquote

        doc_id = unquote(doc_id)
        statuses = self.script.get(doc_id, [200])
        status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
        if status == 200:
            body = {
                "api": "v1",
                "index": "x",
                "docid": doc_id,
                "doc": {"contents": f"text of {doc_id}", "title": "T"},
            }
        elif status == 299:  # answers with another document than the one asked for
            status, body = 200, {"docid": "someone-else", "doc": "other"}
        else:
            body = {"error": f"status {status}"}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def stand_in_service() -> Iterator[str]:
    _Recorder.seen = []
    _Recorder.script = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1/climbmix-400b"
    finally:
        server.shutdown()
        server.server_close()


def test_the_token_is_sent_and_never_logged_or_shown(
    stand_in_service: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "s3cr3t-token-value"
    monkeypatch.setenv("RAG_TOKEN", secret)
    caplog.set_level(logging.DEBUG)
    chain = open_sources([f"{stand_in_service};token_env=RAG_TOKEN"])
    _Recorder.script = {"shard_00001_2": [503, 200], "gone": [404]}
    answer = chain.get_many(["shard_00001_2", "gone"])
    assert answer.documents["shard_00001_2"] is not None and answer.documents["gone"] is None
    assert all(s.get("authorization") == f"Bearer {secret}" for s in _Recorder.seen)
    assert (
        len([s for s in _Recorder.seen if s["path"].endswith("shard_00001_2")]) == 2
    )  # retried after the 503
    assert secret not in caplog.text and "RAG_TOKEN" in chain.describe() and secret not in chain.describe()
    shown = subprocess.run(
        [sys.executable, "-m", "citelens", "show", "gone", "--docs", f"{stand_in_service};token_env=RAG_TOKEN;cache=off"],
        capture_output=True, text=True, timeout=60, env={**__import__("os").environ, "CITELENS_DEBUG": "1"},
    )  # fmt: skip
    assert shown.returncode == 1 and secret not in shown.stdout + shown.stderr


def test_a_missing_token_variable_and_a_refused_token_are_unanswered_with_the_reason(
    stand_in_service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_SUCH_TOKEN_VAR", raising=False)
    answer = open_sources([f"{stand_in_service};token_env=NO_SUCH_TOKEN_VAR"]).get_many(["a"])
    assert "$NO_SUCH_TOKEN_VAR is not set" in answer.unanswered["a"]
    monkeypatch.setenv("BAD_TOKEN", "x")
    _Recorder.script = {"a": [401]}
    answer = open_sources([f"{stand_in_service};token_env=BAD_TOKEN;cache=off"]).get_many(["a"])
    assert "refused the token (HTTP 401)" in answer.unanswered["a"]


def test_an_answer_for_another_document_is_not_taken_for_the_one_asked(stand_in_service: str) -> None:
    _Recorder.script = {"msmarco_v2.1_doc_01_5#1_9": [299]}
    answer = RestSource(stand_in_service, options=ServiceOptions(cache=False)).get_many(
        ["msmarco_v2.1_doc_01_5#1_9"]
    )
    assert answer.documents["msmarco_v2.1_doc_01_5#1_9"] is None


def test_service_addresses_and_options_are_checked() -> None:
    bad = open_sources(["https://host/search"]).get_many(["a"])
    assert "http(s)://HOST/v1/INDEX" in bad.unanswered["a"]
    odd = open_sources(["https://host/v1/idx;tokn=X"]).get_many(["a"])
    assert "unknown option 'tokn'" in odd.unanswered["a"]
