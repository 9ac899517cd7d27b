"""The llm judge against a real HTTP server speaking the chat-completions wire format
(tests/support/chat_server.py: a stand-in started by each test, not a model): the exact
request, every label form the TREC RAG 2024 script reads, errors, retries, timeouts,
cancellation, the cache, the dry run, and the citation limit."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from citelens.cli import main
from citelens.support import Verdict, judge_support
from citelens.support.errors import JudgeError
from citelens.support.llm_client import CallFailed, Cancelled, ChatClient, api_key_from
from citelens.support.llm_judge import LLMBackend
from citelens.support.llm_prompt import PromptError, load_prompt
from citelens.support.model_judge import Item, run_model
from tests.helpers.chat_server import Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, UNRELATED, check_support, cited_verdicts, write_run


def _backend(url: str, **client: object) -> LLMBackend:
    options = {"retries": 2, "backoff": 0.01, "timeout": 5.0, **client}
    return LLMBackend(ChatClient(url, "test-model", **options))  # type: ignore[arg-type]


def test_the_request_is_the_organizers_one_call_one_user_message_temperature_0_1(monkeypatch) -> None:
    monkeypatch.setenv("TEST_JUDGE_KEY", "sk-secret-123")
    with chat_server() as server:
        backend = _backend(server.url, api_key=api_key_from("TEST_JUDGE_KEY"))
        verdict, answer = backend.judge(SENTENCE, DOCUMENT)
    assert (verdict, answer) == (Verdict.SUPPORTED, "Full Support")
    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["Authorization"] == "Bearer sk-secret-123"
    assert request.headers["Content-Type"] == "application/json"
    assert set(request.body) == {"model", "messages", "temperature", "n"}
    assert request.body["model"] == "test-model"
    assert request.body["temperature"] == 0.1 and request.body["n"] == 1
    [message] = request.body["messages"]
    assert message["role"] == "user"
    prompt = message["content"]
    assert f"Statement: {SENTENCE}\n\nCitation: {DOCUMENT}\n\nResponse:" in prompt
    for label in ('"Full Support"', '"Partial Support"', '"No Support"'):
        assert label in prompt


def test_no_key_means_no_authorization_header() -> None:
    with chat_server() as server:
        _backend(server.url).judge(SENTENCE, DOCUMENT)
    assert "Authorization" not in server.requests[0].headers


def test_a_named_key_variable_that_is_not_set_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.delenv("NOT_SET_KEY", raising=False)
    with pytest.raises(JudgeError, match="NOT_SET_KEY"):
        api_key_from("NOT_SET_KEY")
    assert api_key_from(None) is None


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Full Support", Verdict.SUPPORTED),
        ("full support", Verdict.SUPPORTED),
        ("**FULL SUPPORT**", Verdict.SUPPORTED),
        ("Response: Partial Support.", Verdict.PARTIAL),
        ("partial support", Verdict.PARTIAL),
        ("No Support", Verdict.UNSUPPORTED),
        ('"no support" - the citation is about bees', Verdict.UNSUPPORTED),
        # the script checks "full", then "partial", then "no": the first phrase in that order wins
        ("Not full support; partial support at best", Verdict.SUPPORTED),
        ("Partial support, no support for the date", Verdict.PARTIAL),
        ("Supported", None),
        ("", None),
    ],
)
def test_every_label_form_the_organizers_script_reads(answer: str, verdict: Verdict | None) -> None:
    with chat_server(lambda body: Reply(answer)) as server:
        assert _backend(server.url).judge(SENTENCE, DOCUMENT) == (verdict, answer)


def test_an_answer_without_a_label_is_unchecked_with_the_answer_kept() -> None:
    with chat_server(lambda body: Reply("I cannot tell.")) as server:
        backend = _backend(server.url)
        lexical = judge_support(SENTENCE, DOCUMENT)
        out = run_model(backend, [Item("k", SENTENCE, DOCUMENT, lexical)])
    v = out.verdicts["k"]
    assert v.verdict is Verdict.UNCHECKED and v.reason.value == "no_label" and v.answer == "I cannot tell."
    assert v.judge == "llm:test-model"


def test_busy_answers_are_retried_with_backoff_and_retry_after() -> None:
    replies = iter([Reply(status=503), Reply(status=429, headers={"Retry-After": "0"}), Reply("No Support")])
    with chat_server(lambda body: next(replies)) as server:
        assert _backend(server.url).judge(SENTENCE, DOCUMENT)[0] is Verdict.UNSUPPORTED
    assert len(server.requests) == 3


def test_a_call_that_keeps_failing_fails_after_the_retries_and_the_run_goes_on() -> None:
    with chat_server(lambda body: Reply(status=500)) as server:
        backend = _backend(server.url)
        with pytest.raises(CallFailed, match="HTTP 500 after 3 tries"):
            backend.judge(SENTENCE, DOCUMENT)
        lexical = judge_support(SENTENCE, DOCUMENT)
        out = run_model(backend, [Item("a", SENTENCE, DOCUMENT, lexical)])
    assert out.failed == 1 and out.verdicts == {} and not out.complete


def test_an_answer_that_is_not_a_chat_completion_is_retried() -> None:
    replies = iter([Reply(raw=b"<html>proxy error</html>"), Reply("Full Support")])
    with chat_server(lambda body: next(replies)) as server:
        assert _backend(server.url).judge(SENTENCE, DOCUMENT)[0] is Verdict.SUPPORTED


def test_a_timeout_is_retried_then_fails() -> None:
    with chat_server(lambda body: Reply(delay=1.0)) as server:
        backend = _backend(server.url, timeout=0.2, retries=1)
        with pytest.raises(CallFailed, match="after 2 tries"):
            backend.judge(SENTENCE, DOCUMENT)
    assert len(server.requests) == 2


def test_a_refused_prompt_has_no_label_as_in_the_organizers_script() -> None:
    with chat_server(lambda body: Reply(status=400)) as server:
        assert _backend(server.url).judge(SENTENCE, DOCUMENT) == (None, "")
    assert len(server.requests) == 1  # not retried


@pytest.mark.parametrize("status", [401, 403, 404])
def test_a_refused_key_or_a_wrong_model_stops_the_run(status: int) -> None:
    with (
        chat_server(lambda body: Reply(status=status)) as server,
        pytest.raises(JudgeError, match=f"HTTP {status}"),
    ):
        _backend(server.url).judge(SENTENCE, DOCUMENT)


def test_cancelling_stops_the_calls_not_yet_made() -> None:
    cancel = threading.Event()
    seen = 0

    def answer(body: dict) -> Reply:
        nonlocal seen
        seen += 1
        if seen == 2:
            cancel.set()
        return Reply("Full Support", delay=0.05)

    lexical = judge_support(SENTENCE, DOCUMENT)
    items = [Item(str(i), f"{SENTENCE} {i}", DOCUMENT, lexical) for i in range(20)]
    with chat_server(answer) as server:
        backend = _backend(server.url, cancel=cancel)
        out = run_model(backend, items, concurrency=1)
    assert out.cancelled and 1 <= out.done < 20 and len(server.requests) < 20
    with pytest.raises(Cancelled):
        backend.judge(SENTENCE, DOCUMENT)


def test_the_calls_run_at_most_concurrency_at_a_time() -> None:
    running = 0
    most = 0
    lock = threading.Lock()

    def answer(body: dict) -> Reply:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        import time

        time.sleep(0.05)
        with lock:
            running -= 1
        return Reply("Partial Support")

    lexical = judge_support(SENTENCE, DOCUMENT)
    items = [Item(str(i), f"{SENTENCE} {i}", DOCUMENT, lexical) for i in range(9)]
    with chat_server(answer) as server:
        out = run_model(_backend(server.url), items, concurrency=3)
    assert out.done == 9 and most <= 3 and len(server.requests) == 9
    assert all(v.verdict is Verdict.PARTIAL and v.tier == "high" for v in out.verdicts.values())
    # the lexical evidence stays with the model's verdict
    assert all(v.evidence == lexical.evidence for v in out.verdicts.values())


def test_a_prompt_file_of_ones_own(tmp_path: Path) -> None:
    own = tmp_path / "attest.txt"
    own.write_text("Does the passage attest the claim?\nClaim: {statement}\nPassage: {citation}\n")
    prompt = load_prompt(str(own))
    assert prompt.render("A", "B") == "Does the passage attest the claim?\nClaim: A\nPassage: B\n"
    assert prompt.key != load_prompt().key
    broken = tmp_path / "broken.txt"
    broken.write_text("no placeholders")
    with pytest.raises(PromptError, match="statement"):
        load_prompt(str(broken))
    with pytest.raises(PromptError, match="trec-rag-2024"):
        load_prompt("no-such-prompt")


# --- the whole check ------------------------------------------------------------------


def _run(tmp_path: Path, citations: list[str], docs: dict[str, str]) -> Path:
    return write_run(tmp_path, [(SENTENCE, citations), (UNRELATED, citations[:1])], docs)


def _check(
    capsys, run: Path, url: str, cache: Path, *extra: str, output: str = "json"
) -> tuple[int, str, str]:
    judge = extra[0] if extra else "llm"
    endpoint = ("--llm-endpoint", url, "--llm-model", "test-model", "--support-cache", str(cache))
    return check_support(capsys, run, judge, *endpoint, *extra[1:], output=output)


_verdicts = cited_verdicts


def test_check_with_the_llm_judge_caches_every_answer(tmp_path, capsys) -> None:
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    cache = tmp_path / "verdicts.sqlite"
    with chat_server(lambda body: Reply("No Support")) as server:
        code, out, err = _check(capsys, run, server.url, cache)
        assert len(server.requests) == 2
        verdicts = _verdicts(out)
        assert {v["judge"] for v in verdicts} == {"llm:test-model"}
        assert {v["verdict"] for v in verdicts} == {"unsupported"}
        assert "llm:test-model: 2 of 2 calls answered" in err
        # again: nothing is asked twice
        _check(capsys, run, server.url, cache)
        assert len(server.requests) == 2
        # another model is another key
        options = ("--llm-endpoint", server.url, "--llm-model", "other-model", "--support-cache", str(cache))
        check_support(capsys, run, "llm", *options, output="text")
        assert len(server.requests) == 4
    assert code == 0  # support findings are warnings at most


def test_the_llm_verdict_is_the_finding(tmp_path, capsys) -> None:
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    with chat_server(lambda body: Reply("No Support")) as server:
        _code, out, _err = _check(capsys, run, server.url, Path("none"), "llm", output="text")
    # the lexical judge calls the first sentence supported; the model says no support
    assert "citation_unsupported" in out and "llm:test-model answered 'No Support'" in out


def test_at_most_three_citations_of_a_sentence_go_to_the_model(tmp_path, capsys) -> None:
    docs = {f"D{i}": DOCUMENT.replace("Earthworms", f"Earthworms{i}") for i in range(5)}
    run = _run(tmp_path, list(docs), docs)
    with chat_server() as server:
        _code, out, _err = _check(capsys, run, server.url, tmp_path / "c.sqlite")
    assert len(server.requests) == 3 + 1  # the first sentence's first three, the second's one
    judges = [v["judge"] for v in _verdicts(out)]
    assert judges[:5] == ["llm:test-model"] * 3 + ["lexical"] * 2


def test_the_cascade_sends_only_the_uncertain_band(tmp_path, capsys) -> None:
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    with chat_server() as server:
        _code, out, _err = _check(capsys, run, server.url, tmp_path / "c.sqlite", "cascade")
    # "Comets orbit distant stars slowly." shares no word: high tier, settled lexically
    assert [r.body["messages"][0]["content"].count("Comets") for r in server.requests] == [0]
    assert [v["judge"] for v in _verdicts(out)] == ["llm:test-model", "lexical"]


def test_a_dry_run_counts_the_calls_and_sends_nothing(tmp_path, capsys) -> None:
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    with chat_server() as server:
        _code, out, err = _check(capsys, run, server.url, tmp_path / "c.sqlite", "llm", "--dry-run")
    assert server.requests == []
    assert "dry run: 2 calls to llm:test-model (about" in err and "nothing was sent" in err


def test_a_stopped_run_resumes_with_the_answers_it_got(tmp_path, capsys) -> None:
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    cache = tmp_path / "c.sqlite"
    down = True

    def answer(body: dict) -> Reply:
        return Reply(status=500) if down and "Comets" in body["messages"][0]["content"] else Reply()

    with chat_server(answer) as server:
        _code, _out, err = _check(capsys, run, server.url, cache, "llm", "--judge-retries", "0")
        assert "1 of 2 calls answered; 1 failed" in err
        down = False
        _check(capsys, run, server.url, cache)
    assert len(server.requests) == 3 and "Comets" in server.requests[2].body["messages"][0]["content"]


def test_a_refused_key_is_a_clear_message_without_the_key(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("TEST_JUDGE_KEY", "sk-do-not-print")
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    with chat_server(lambda body: Reply(status=401)) as server:
        code, out, err = _check(
            capsys, run, server.url, tmp_path / "c.sqlite", "llm", "--llm-key-env", "TEST_JUDGE_KEY"
        )
    assert code == 2 and "refused the API key (HTTP 401)" in err
    assert "sk-do-not-print" not in out + err


def test_the_llm_judge_without_an_endpoint_is_a_usage_error(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("CITELENS_LLM_ENDPOINT", raising=False)
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    code = main(["check", str(run), "--support", "--judge", "llm", "--support-cache", "none"])
    assert code == 2 and "needs an endpoint and a model" in capsys.readouterr().err


def test_a_project_asking_for_a_model_the_user_has_not_set_up_is_judged_lexically(
    tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.delenv("CITELENS_LLM_ENDPOINT", raising=False)
    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    (tmp_path / "citelens.toml").write_text('support = true\nsupport_judge = "llm"\n')
    code = main(["check", str(run), "--support-cache", "none"])
    err = capsys.readouterr().err
    assert code in (0, 1) and "support_judge = 'llm'" in err and "judged lexically" in err


def test_on_demand_one_citation_then_the_lookup_shows_the_models_verdict(tmp_path) -> None:
    """What an editor's "Judge this citation" does: only that citation goes to the model,
    and from then on the verdict under the cursor is the model's."""
    from citelens.check.view import ReportView
    from citelens.session import Workspace

    run = _run(tmp_path, ["Earthworm"], {"Earthworm": DOCUMENT})
    workspace = Workspace(cli={"spec": "kiddie", "support": True})
    doc = workspace.open(str(run), run.read_text())
    first = doc.sentences(0)[0].citations[0]
    _, before = doc.support_at(first.start)
    assert before.judge == "lexical" and before.verdict is Verdict.SUPPORTED
    support = workspace.support_run_for(doc.settings)
    view = ReportView.build(json.loads(run.read_text()), doc.checker.spec)
    with chat_server(lambda body: Reply("No Support")) as server:
        out = support.judge_with(_backend(server.url), [view], pointers={first.pointer})
    assert out.done == 1 and len(server.requests) == 1
    _, after = doc.support_at(first.start)
    assert after.judge == "llm:test-model" and after.verdict is Verdict.UNSUPPORTED
    assert after.evidence == before.evidence  # the lexical evidence stays
    second = doc.sentences(0)[1].citations[0]
    assert doc.support_at(second.start)[1].judge == "lexical"
