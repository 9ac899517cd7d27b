"""Where a token goes, and how much a service may send: against a real HTTP server on
127.0.0.1 that each test starts and stops."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citelens.corpus import open_sources
from citelens.corpus.http_fetch import token_refusal
from tests.helpers.http_service import Service, running_service

SECRET = "victim-secret-value"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("VICTIM_SECRET", SECRET)


def test_a_token_goes_only_over_https_or_to_this_machine() -> None:
    assert token_refusal("https://api.example.org/v1/x") is None
    for local in ("http://127.0.0.1:9/v1/x", "http://localhost/v1/x", "http://[::1]:8080/v1/x"):
        assert token_refusal(local) is None, local
    refusal = token_refusal("http://api.example.org/v1/x")
    assert refusal is not None and "only goes over https" in refusal
    # the source refuses before any connection: the reason is the refusal, not "cannot reach"
    answer = open_sources(["http://api.example.invalid/v1/x;token_env=VICTIM_SECRET;cache=off"]).get_many(
        ["d1"]
    )
    assert "only goes over https" in answer.unanswered["d1"] and SECRET not in answer.unanswered["d1"]


def test_the_token_is_kept_on_a_redirect_within_the_service_and_dropped_when_it_leaves() -> None:
    with running_service() as elsewhere:

        def redirect(service: Service, doc_id: str) -> None:
            if doc_id == "moved-away":
                service.answers[doc_id] = (302, {"Location": f"{elsewhere.url}/doc/moved-away"}, b"")
            elif doc_id == "moved-here":
                service.answers[doc_id] = (301, {"Location": f"{service.url}/doc/landed"}, b"")

        with running_service(redirect) as home:
            chain = open_sources([f"{home.url};token_env=VICTIM_SECRET;cache=off"])
            answer = chain.get_many(["moved-away", "moved-here"])
    assert not answer.unanswered
    assert answer.documents["moved-away"] is not None  # the other host did answer
    # the service itself got the token on every request, the other host on none
    assert home.authorizations() == [f"Bearer {SECRET}"] * 3
    assert [s["path"] for s in elsewhere.seen] == ["/v1/idx/doc/moved-away"]
    assert elsewhere.authorizations() == [None]


def test_an_answer_over_the_size_limit_is_refused_with_or_without_its_length_declared() -> None:
    big = b'{"docid": "x", "doc": "' + b"a" * 3_000_000 + b'"}'
    with running_service() as home:
        home.answers["declared"] = (200, {}, big)
        home.unsized["streamed"] = big
        chain = open_sources([f"{home.url};max_mb=1;cache=off"])
        answer = chain.get_many(["declared", "streamed", "small"])
        default = open_sources([f"{home.url};cache=off"]).get_many(["streamed"])
    for doc_id in ("declared", "streamed"):
        assert "larger than 1.04858 MB" in answer.unanswered[doc_id], answer.unanswered
        assert "max_mb" in answer.unanswered[doc_id]
    assert answer.documents["small"] is not None
    assert default.documents["streamed"] is None and not default.unanswered  # 64 MB: read, not this doc


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ("retries=2000", "retries='2000' is out of range: it must be a whole number from 0 to 10"),
        ("timeout=inf", "timeout='inf' is out of range: it must be a number from 0.1 to 600"),
        ("timeout=nan", "timeout='nan' is out of range"),
        ("timeout=1e400", "timeout='1e400' is out of range"),
        ("concurrency=0", "concurrency='0' is out of range: it must be a whole number from 1 to 64"),
        ("retries=two", "retries='two' must be a whole number from 0 to 10"),
        ("max_mb=-1", "max_mb='-1' is out of range"),
    ],
)
def test_service_options_out_of_range_are_refused_with_the_range(option: str, says: str) -> None:
    answer = open_sources([f"http://127.0.0.1:9/v1/x;{option}"]).get_many(["d"])
    assert says in answer.unanswered["d"]


def test_check_names_an_option_out_of_range_instead_of_an_internal_error(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(Path(__file__).with_name("run.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "citelens", "check", str(run), "--spec", "rag25", "--docs", "http://127.0.0.1:9/v1/x;timeout=inf"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "internal error" not in done.stderr and "OverflowError" not in done.stderr
    assert "timeout='inf' is out of range" in done.stdout + done.stderr


def test_a_corpus_folder_walk_stops_at_its_depth_and_entry_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citelens.corpus.reading import CorpusFileError, corpus_files

    deep = tmp_path / "corpus" / "a" / "b" / "c"
    deep.mkdir(parents=True)
    (deep / "docs.jsonl").write_text('{"docid": "d1", "contents": "x"}\n')
    for i in range(30):
        (tmp_path / "corpus" / f"note-{i}.txt").write_text("x")
    assert corpus_files(tmp_path / "corpus") == [deep / "docs.jsonl"]
    monkeypatch.setenv("CITELENS_CORPUS_WALK_DEPTH", "2")
    with pytest.raises(CorpusFileError, match=r"at most 2 folders deep.*CITELENS_CORPUS_WALK_DEPTH"):
        corpus_files(tmp_path / "corpus")
    monkeypatch.delenv("CITELENS_CORPUS_WALK_DEPTH")
    monkeypatch.setenv("CITELENS_CORPUS_WALK_ENTRIES", "20")
    with pytest.raises(CorpusFileError, match="after 20 folder entries; is this the corpus folder"):
        corpus_files(tmp_path / "corpus")


def test_a_file_nobody_opened_is_not_read_past_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citelens.files import FileError
    from citelens.session import Workspace

    run = tmp_path / "big.jsonl"
    run.write_text(Path(__file__).with_name("run.jsonl").read_text() * 2000)  # about 4 MB
    session = Workspace([tmp_path])
    assert session.check_file(run).findings  # under the default limit
    monkeypatch.setenv("CITELENS_MAX_FILE_MB", "1")
    with pytest.raises(FileError, match=r"not read: it is \d+ MB, over the 1 MB .*CITELENS_MAX_FILE_MB"):
        session.check_file(run)


def test_a_redirect_from_https_down_to_http_on_the_same_host_drops_the_token() -> None:
    import io
    import urllib.request
    from http.client import HTTPMessage

    from citelens.corpus.http_fetch import _KeepTokenHome

    handler = _KeepTokenHome()

    def follow(old: str, new: str) -> dict[str, str]:
        request = urllib.request.Request(old, headers={"Authorization": "Bearer t", "Accept": "x"})
        followed = handler.redirect_request(request, io.BytesIO(), 302, "Found", HTTPMessage(), new)
        assert followed is not None
        return {k.lower(): v for k, v in followed.header_items()}

    assert follow("https://api.example.org/v1/x/doc/a", "https://api.example.org/v1/x/doc/b")["authorization"]
    assert "authorization" not in follow(
        "https://api.example.org/v1/x/doc/a", "http://api.example.org/v1/x/doc/a"
    )
    assert "authorization" not in follow("https://api.example.org/v1/x/doc/a", "https://evil.example.net/a")
    assert "authorization" not in follow(
        "https://api.example.org/v1/x/doc/a", "https://api.example.org:8443/a"
    )
