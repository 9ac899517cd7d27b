"""The editor's model judging in the engine, without a server: an open run file, a model
(a stand-in chat-completions server started by the test: no model can be downloaded
here), and what "Judge this citation" and "Judge this file" send to it, keep, and show
afterwards (`OpenDocument.support_at`, what the hover shows)."""

from __future__ import annotations

import json
import threading

import pytest

from citelens.session import Workspace
from citelens.session.model_judging import NothingToJudge, judge_document, offered_judge, plan_judging
from citelens.support import Verdict
from citelens.support.llm_client import ChatClient
from citelens.support.llm_judge import LLMBackend
from tests.helpers.chat_server import Gate, Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, UNRELATED, report_with_documents

#: a sentence the lexical judge finds supported, in its low tier: the uncertain band
OTHER = "Worms make tunnels in soil."


@pytest.fixture(autouse=True)
def _own_environment(monkeypatch, tmp_path):
    """No model set up by the environment; the user's cache folder is the test's own."""
    for name in ("CITELENS_LLM_ENDPOINT", "CITELENS_LLM_MODEL", "CITELENS_LLM_KEY_ENV", "CITELENS_NLI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "user-cache"))


def _open(tmp_path, *reports: list[str], model: dict | None = None):
    """An open run, one report per list of sentences (each citing the earthworm document),
    with the user's `support_model` settings."""
    text = "".join(
        json.dumps(report_with_documents([(s, ["Earthworm"]) for s in sentences], {"Earthworm": DOCUMENT}))
        + "\n"
        for sentences in reports
    )
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([tmp_path], cli={"spec": "kiddie", "support": True})
    if model is not None:
        workspace.set_editor_settings({"support_model": model}, tmp_path)
    return workspace.open(str(path), text)


def _citations(doc):
    return [c for r in range(len(doc.items)) for s in doc.sentences(r) for c in s.citations]


def _backend(url: str, retries: int = 0) -> LLMBackend:
    return LLMBackend(ChatClient(url, "stand-in", retries=retries, backoff=0.01))


def _judge_of(doc, citation) -> tuple[str, Verdict]:
    _, verdict = doc.support_at(citation.start)
    return verdict.judge, verdict.verdict


def test_an_offset_sends_only_the_citation_there(tmp_path):
    with chat_server(lambda body: Reply("No Support")) as server:
        doc = _open(
            tmp_path, [SENTENCE, OTHER], [UNRELATED], model={"endpoint": server.url, "model": "stand-in"}
        )
        first, second, third = _citations(doc)
        outcome = judge_document(doc, _backend(server.url), offset=second.start + 1)
    assert (outcome.planned, outcome.done) == (1, 1)
    assert len(server.requests) == 1 and OTHER in server.prompts()[0]
    assert _judge_of(doc, second) == ("llm:stand-in", Verdict.UNSUPPORTED)
    assert _judge_of(doc, first)[0] == "lexical" and _judge_of(doc, third)[0] == "lexical"
    # the findings are the model's too: the report it belongs to was checked again
    assert any(f.code == "citation_unsupported" for f in doc.result.findings)


def test_the_whole_file_sends_every_citation_once(tmp_path):
    with chat_server(lambda body: Reply("Full Support")) as server:
        doc = _open(tmp_path, [SENTENCE, OTHER], [UNRELATED])
        outcome = judge_document(doc, _backend(server.url))
        assert (outcome.planned, outcome.done, outcome.failed) == (3, 3, 0)
        assert {judge for judge, _ in map(lambda c: _judge_of(doc, c), _citations(doc))} == {"llm:stand-in"}
        again = judge_document(doc, _backend(server.url))  # every answer is cached
    assert (again.planned, again.done) == (0, 0) and len(server.requests) == 3


def test_nothing_to_judge_is_said(tmp_path):
    with chat_server() as server:
        doc = _open(tmp_path, [SENTENCE], model={"endpoint": server.url, "model": "stand-in"})
        (citation,) = _citations(doc)
        with pytest.raises(NothingToJudge, match="no citation of a document here"):
            plan_judging(doc, doc.text.index('"metadata"'))
        assert offered_judge(doc, doc.text.index('"metadata"')) is None
        assert offered_judge(doc, citation.start) == "llm:stand-in"
    unset = _open(tmp_path, [SENTENCE])  # no model set up
    with pytest.raises(NothingToJudge, match="no model judge is set up"):
        plan_judging(unset, _citations(unset)[0].start)
    assert offered_judge(unset, _citations(unset)[0].start) is None
    assert server.requests == []


def test_the_offered_nli_judge_is_named_without_loading_the_model(tmp_path):
    folder = tmp_path / "models" / "m"
    folder.mkdir(parents=True)
    (folder / "citelens.toml").write_text('name = "tiny"\n', encoding="utf-8")  # no model.onnx: never read
    doc = _open(tmp_path, [SENTENCE], model={"nli_model": str(folder)})
    assert offered_judge(doc, _citations(doc)[0].start) == "nli:tiny"


def test_cascade_sends_only_the_uncertain_band(tmp_path):
    with chat_server(lambda body: Reply("No Support")) as server:
        doc = _open(tmp_path, [SENTENCE, UNRELATED])
        worms, comets = _citations(doc)
        assert _judge_of(doc, comets) == ("lexical", Verdict.UNSUPPORTED)  # high tier: certain
        outcome = judge_document(doc, _backend(server.url), cascade=True)
    assert (outcome.planned, outcome.done) == (1, 1)
    assert len(server.requests) == 1 and SENTENCE in server.prompts()[0]
    assert _judge_of(doc, worms) == ("llm:stand-in", Verdict.UNSUPPORTED)
    assert _judge_of(doc, comets) == ("lexical", Verdict.UNSUPPORTED)


def test_a_cancel_midway_keeps_the_answers_done(tmp_path):
    sentences = [f"Worms live in the dirt and make tunnels number {n}." for n in range(6)]
    gate = Gate(Reply("No Support"), free=1)  # one answer at once, then a slow endpoint
    with chat_server(gate) as server:
        doc = _open(tmp_path, sentences)
        at_once = doc.workspace.support_run_for(doc.settings).concurrency  # calls in flight together
        backend = _backend(server.url)
        judging = plan_judging(doc, backend=backend)
        outcomes = []
        worker = threading.Thread(target=lambda: outcomes.append(judging.call()))
        worker.start()
        try:
            # the first answer, then as many calls as may be in flight, all held at the endpoint
            server.wait_for_requests(1 + at_once)
            backend.cancel.set()
            worker.join(10)
            assert not worker.is_alive(), "the cancel waited for the calls held at the endpoint"
        finally:
            gate.open()
        judging.finish(doc)
        (outcome,) = outcomes
        assert outcome.cancelled and (outcome.planned, outcome.done) == (6, 1)
        (kept,) = [c for c, s in zip(_citations(doc), sentences) if s in gate.answered[0]]
        assert _judge_of(doc, kept) == ("llm:stand-in", Verdict.UNSUPPORTED)
        assert sum(_judge_of(doc, c)[0] == "lexical" for c in _citations(doc)) == 5
        # judged again: only what was not answered goes to the model
        again = judge_document(doc, _backend(server.url))
    assert (again.planned, again.done) == (5, 5)
    assert len(server.requests) == 1 + at_once + 5  # no call started after the cancel


def test_errors_from_the_endpoint_are_counted_as_failed_not_raised(tmp_path):
    def answer(body):
        return Reply(status=500) if "Comets" in body["messages"][0]["content"] else Reply("No Support")

    with chat_server(answer) as server:
        doc = _open(tmp_path, [SENTENCE, UNRELATED])
        worms, comets = _citations(doc)
        outcome = judge_document(doc, _backend(server.url, retries=1))
    assert (outcome.planned, outcome.done, outcome.failed) == (2, 1, 1)
    assert not outcome.complete and not outcome.cancelled
    assert len(server.requests) == 3  # the failing call was tried again once
    assert _judge_of(doc, worms) == ("llm:stand-in", Verdict.UNSUPPORTED)
    assert _judge_of(doc, comets) == ("lexical", Verdict.UNSUPPORTED)  # left to the word matcher
