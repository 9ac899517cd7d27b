"""`check --support`: findings on the citation tokens of every shape, sentence-level
collapsing, the run summary, JSON verdicts, the verdict cache and the executors."""

from __future__ import annotations

import json
import os
import random

import pytest

from citelens.check.engine import Checker
from citelens.cli import main
from citelens.support.cache import VerdictCache
from citelens.support.executor import ExecutorError, parse_executor, run_judgements
from citelens.support.run import SupportRun
from citelens.support.settings import default_settings
from tests.helpers.kiddie_runs import KIDDIE, run_without_embedded_documents

EARTHWORM = "Earthworms are tube-shaped segmented worms that live in soil and create tunnels."
HIBERNATION = (
    "Hibernation is a state of minimal activity and metabolic depression in animals. It allows them to "
    "survive periods of cold weather when food is scarce."
)
DOCS = {"Earthworm": EARTHWORM, "Hibernation": HIBERNATION}
GOOD = "Worms live in the dirt and make tunnels."  # kiddie run2, supported by Earthworm
BAD = "In spring, they wake up hungry and ready to find food again!"  # kiddie run1, not by Hibernation


def support_findings(text: str, **run_options):
    run = SupportRun(documents=DOCS, executor="serial", **run_options)
    result = Checker(None, support=run).check_text(text)
    return [
        (f.code, f.severity, text[f.start : f.end])
        for f in result.findings
        if f.code.startswith(("citation_", "support_"))
    ], result


def test_findings_sit_on_the_citation_token_in_every_shape():
    rag24 = {
        "references": ["Earthworm", "Hibernation"],
        "answer": [{"text": GOOD, "citations": [0]}, {"text": BAD, "citations": [1]}],
    }
    ragtime = {
        "responses": [
            {"text": GOOD, "citations": {"Earthworm": 0.9}},
            {"text": BAD, "citations": {"Hibernation": 0.5}},
        ]
    }
    id_list = {
        "responses": [{"text": GOOD, "citations": ["Earthworm"]}, {"text": BAD, "citations": ["Hibernation"]}]
    }
    expected_token = {"rag24": "1", "ragtime": '"Hibernation"', "id_list": '"Hibernation"'}
    for name, report in (("rag24", rag24), ("ragtime", ragtime), ("id_list", id_list)):
        found, _ = support_findings(json.dumps(report))
        assert found == [("citation_unsupported", "warning", expected_token[name])], name


def test_weak_citation_is_an_info_with_the_evidence_quoted():
    report = {
        "responses": [
            {"text": "Worms live in soil and breathe through their moist skin.", "citations": ["Earthworm"]}
        ]
    }
    run = SupportRun(documents=DOCS, executor="serial")
    result = Checker(None, support=run).check_text(json.dumps(report))
    weak = [f for f in result.findings if f.code == "citation_weak"]
    assert len(weak) == 1 and weak[0].severity == "info"
    assert "score 0." in weak[0].message and "“" in weak[0].message


def test_a_sentence_whose_citations_all_fail_gets_one_finding_on_its_text():
    report = {"responses": [{"text": BAD, "citations": ["Hibernation", "Earthworm"]}]}
    text = json.dumps(report)
    found, _ = support_findings(text)
    assert found == [("citation_unsupported", "warning", json.dumps(BAD))]


def test_unchecked_is_off_by_default_and_says_why_when_on():
    report = {"responses": [{"text": GOOD, "citations": ["Missing_doc"]}]}
    found, _ = support_findings(json.dumps(report))
    assert found == []
    run = SupportRun(documents=DOCS, executor="serial")
    result = Checker(None, overrides={"support_unchecked": "info"}, support=run).check_text(
        json.dumps(report)
    )
    [f] = [f for f in result.findings if f.code == "support_unchecked"]
    assert f.severity == "info" and "not available" in f.message


def test_without_support_there_are_no_support_findings():
    report = json.dumps(
        {
            "responses": [{"text": BAD, "citations": ["Hibernation"]}],
            "documents": {"Hibernation": HIBERNATION},
        }
    )
    result = Checker(None).check_text(report)
    assert not [f for f in result.findings if f.code.startswith("citation_un")] and result.support is None


def test_cli_prints_shares_per_report_and_run(capsys, tmp_path):
    code = main(
        [
            "check",
            "--support",
            "--spec",
            "kiddie",
            "--support-cache",
            str(tmp_path / "c.sqlite"),
            str(KIDDIE / "run1.jsonl"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("support: ")]
    assert len(lines) == 6  # five reports and the run
    assert "report 1 (topic leaf): 5 sentences: supported " in lines[0] and "groundedness " in lines[0]
    assert "run: 5 reports, 25 sentences: supported " in lines[-1]
    assert "warning[citation_unsupported]" in out


def test_json_carries_verdicts_with_evidence_offsets(capsys, tmp_path):
    path = KIDDIE / "run1.jsonl"
    main(["check", "--support", "--format", "json", "--support-cache", "none", "--spec", "kiddie", str(path)])
    doc = json.loads(capsys.readouterr().out)
    [file_doc] = doc["support"]
    reports = [json.loads(line) for line in path.read_text().splitlines()]
    assert file_doc["run"]["sentences"] == 25 and len(file_doc["reports"]) == 5
    seen = 0
    for report, r in zip(reports, file_doc["reports"]):
        assert set(r["hallucination_metrics"]) >= {"groundedness_score", "hallucination_rate"}
        for s in r["sentences"]:
            for c in s["citations"]:
                text = report["documents"][c["doc_id"]]["text"]
                for e in c["evidence"]:
                    assert text[e["start"] : e["end"]] == e["text"]
                    seen += 1
    assert seen > 20


def test_support_setting_in_citelens_toml_turns_it_on(capsys, tmp_path, monkeypatch):
    run = tmp_path / "run.jsonl"
    run.write_text((KIDDIE / "run1.jsonl").read_text())
    (tmp_path / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\n')
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    main(["check", str(run)])
    out = capsys.readouterr().out
    assert "support: " in out and (tmp_path / "cache" / "support.sqlite").is_file()


def test_bad_executor_is_a_usage_error(capsys):
    assert main(["check", "--support", "--executor", "spark", str(KIDDIE / "run1.jsonl")]) == 2
    assert "unknown executor 'spark'" in capsys.readouterr().err
    with pytest.raises(ExecutorError):
        parse_executor("process:host")


def _verdicts(out: str) -> list[str]:
    [file_doc] = json.loads(out)["support"]
    return [c["verdict"] for r in file_doc["reports"] for s in r["sentences"] for c in s["citations"]]


def test_docs_gives_the_judge_the_documents_the_reports_do_not_embed(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    run, documents = run_without_embedded_documents(tmp_path)
    common = ["check", str(run), "--support", "--format", "json", "--support-cache", "none"]
    main(common)
    without = _verdicts(capsys.readouterr().out)
    assert set(without) == {"unchecked"}
    main([*common, "--docs", str(documents)])
    captured = capsys.readouterr()
    with_docs = _verdicts(captured.out)
    assert len(with_docs) == len(without) and "unchecked" not in with_docs
    assert "unknown_document" not in captured.out  # every cited id is in the file


def test_documents_is_a_deprecated_hidden_alias_of_docs(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    run, documents = run_without_embedded_documents(tmp_path)
    common = ["check", "--support", "--format", "json", "--support-cache", "none"]
    main([*common, str(run), "--docs", str(documents)])
    via_docs = capsys.readouterr()
    main([*common, "--documents", str(documents), str(run)])  # the old spelling, before the path
    via_alias = capsys.readouterr()
    assert _verdicts(via_alias.out) == _verdicts(via_docs.out)
    assert "--documents is deprecated; use --docs" in via_alias.err and "deprecated" not in via_docs.err
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    help_text = capsys.readouterr().out
    assert "--docs SOURCE" in help_text and "--documents" not in help_text


def test_disk_cache_answers_an_unchanged_run_without_judging(tmp_path, monkeypatch):
    text = (KIDDIE / "run3.jsonl").read_text()
    cache_path = tmp_path / "verdicts.sqlite"
    first = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    cold = Checker(None, support=first).check_text(text)
    first.cache.close()
    assert first.cache.misses > 0

    def no_judging(*args, **kwargs):
        raise AssertionError("a warm re-check judged a pair")

    monkeypatch.setattr("citelens.support.run.run_judgements", no_judging)
    monkeypatch.setattr("citelens.support.judge.judge_support", no_judging)
    second = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    warm = Checker(None, support=second).check_text(text)
    assert second.cache.misses == 0 and second.cache.hits == first.cache.misses
    assert [(f.code, f.start, f.message) for f in warm.findings] == [
        (f.code, f.start, f.message) for f in cold.findings
    ]


def test_changed_thresholds_do_not_reuse_cached_verdicts(tmp_path):
    text = (KIDDIE / "run1.jsonl").read_text()
    cache_path = tmp_path / "verdicts.sqlite"
    run = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    Checker(None, support=run).check_text(text)
    run.cache.close()
    other = SupportRun(
        settings=default_settings().with_overrides({"supported_coverage": 0.9}),
        cache=VerdictCache(cache_path),
        executor="serial",
    )
    Checker(None, support=other).check_text(text)
    assert other.cache.hits == 0


def test_verdicts_cached_under_older_rules_are_judged_again(tmp_path, monkeypatch):
    text = (KIDDIE / "run1.jsonl").read_text()
    cache_path = tmp_path / "verdicts.sqlite"
    run = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    Checker(None, support=run).check_text(text)
    run.cache.close()
    # a CiteLens whose word matcher changed a rule, with the same thresholds
    monkeypatch.setattr("citelens.support.cache.LEXICAL_RULES", 10_000)
    newer = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    Checker(None, support=newer).check_text(text)
    assert newer.cache.hits == 0 and newer.cache.misses == run.cache.misses


def generated_pairs(n: int = 600) -> list[tuple[str, str | None]]:
    """Sentences of the kiddie runs against documents of the same report, shuffled."""
    rng = random.Random(11)
    pool = []
    for path in sorted(KIDDIE.glob("run*.jsonl")):
        for line in path.read_text().splitlines():
            report = json.loads(line)
            docs = [d["text"] for d in report["documents"].values()]
            for s in report["responses"]:
                pool.append((s["text"], docs))
    out: list[tuple[str, str | None]] = []
    while len(out) < n:
        sentence, docs = rng.choice(pool)
        out.append((sentence, rng.choice(docs + [None])))
    return out


def test_process_pool_gives_exactly_the_serial_results():
    pairs = generated_pairs()
    settings = default_settings()
    serial = run_judgements(pairs, settings, "serial")
    pooled = run_judgements(pairs, settings, "process", batch_size=64)
    assert pooled == serial


def test_ray_cluster_gives_exactly_the_process_pool_results():
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("Ray is not installed (pip install 'citelens[ray]')")
    pairs = generated_pairs(400)
    settings = default_settings()
    pooled = run_judgements(pairs, settings, "process", batch_size=64)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_judgements(pairs, settings, "ray", batch_size=64)
    finally:
        ray.shutdown()
    assert on_ray == pooled


def test_progress_reports_pairs_rate_and_eta():
    import io

    from citelens.support.executor import TerminalProgress

    calls = []
    pairs = generated_pairs(300)
    run_judgements(
        pairs, default_settings(), "serial", batch_size=100, progress=lambda d, t: calls.append((d, t))
    )
    done = [d for d, _ in calls]
    assert len(calls) > 1 and done == sorted(done) and calls[-1] == (300, 300)
    assert all(t == 300 for _, t in calls)
    stream = io.StringIO()
    line = TerminalProgress(stream)
    line(50, 200)
    line(200, 200)
    text = stream.getvalue()
    assert "support: judged 50/200 pairs (" in text and "/s, ETA " in text and text.endswith("\n")


def test_support_thresholds_table_sets_the_judge_thresholds(tmp_path):
    from citelens.config import settings_for

    (tmp_path / "citelens.toml").write_text(
        'spec = "kiddie"\nsupport = true\n\n[support_thresholds]\nsupported_coverage = 0.9\n'
    )
    settings = settings_for(tmp_path / "run.jsonl")
    assert settings.support is True and settings.support_thresholds == {"supported_coverage": 0.9}


@pytest.mark.parametrize(
    ("toml", "message", "line"),
    [
        (
            "[support_thresholds]\nsuported_coverage = 0.9\n",
            "unknown support threshold 'suported_coverage' (did you mean 'supported_coverage'?)",
            2,
        ),
        (
            "[support_thresholds]\nsupported_coverage = 2\n",
            "support_thresholds.supported_coverage: must be at most 1.0",
            2,
        ),
        ('support = "yes"\n', "'support' must be true or false", 1),
        ('[support_thresholds]\nmax_passages = "3"\n', "support_thresholds.max_passages must be a number", 2),
    ],
)
def test_bad_support_settings_are_positioned(tmp_path, toml, message, line):
    from citelens.config import ConfigError
    from citelens.session import Workspace

    (tmp_path / "citelens.toml").write_text(toml)
    with pytest.raises(ConfigError) as err:
        Workspace().settings_for(tmp_path / "run.jsonl")
    assert message in str(err.value) and f":{line}" in str(err.value)


def test_bad_threshold_is_a_usage_error_on_the_command_line(tmp_path, capsys):
    run = tmp_path / "run.jsonl"
    run.write_text((KIDDIE / "run1.jsonl").read_text())
    (tmp_path / "citelens.toml").write_text("support = true\n\n[support_thresholds]\nmax_pasages = 2\n")
    assert main(["check", "--support-cache", "none", str(run)]) == 2
    err = capsys.readouterr().err
    assert "citelens.toml:4" in err and "did you mean 'max_passages'?" in err


def test_documents_come_from_the_configured_corpora(tmp_path, capsys):
    # the auto-judge spot check: a run citing Cranfield document 224, the corpus as a file
    run = tmp_path / "run.jsonl"
    run.write_text((KIDDIE / "my_best_run_01.jsonl").read_text())
    (tmp_path / "cranfield.jsonl").write_text((KIDDIE / "cranfield-224-279.jsonl").read_text())
    (tmp_path / "citelens.toml").write_text('support = true\ncorpora = ["cranfield.jsonl;id=docno"]\n')
    main(["check", "--format", "json", "--support-cache", "none", str(run)])
    doc = json.loads(capsys.readouterr().out)
    [report] = doc["support"][0]["reports"]
    [cited] = [c for s in report["sentences"] for c in s["citations"]]
    text = json.loads((KIDDIE / "cranfield-224-279.jsonl").read_text().splitlines()[0])["text"]
    assert cited["doc_id"] == "224" and cited["verdict"] != "unchecked"
    assert any(
        text[e["start"] : e["end"]] == e["text"] == "quasi-cylindrical surfaces" for e in cited["evidence"]
    )


def test_the_editor_lookup_gives_the_cli_verdict_for_every_citation(tmp_path, capsys):
    """What a hover shows (OpenDocument.support_at) is what `check --support` reports."""
    from citelens.session import Workspace

    path = KIDDIE / "run3.jsonl"
    main(["check", "--support", "--format", "json", "--support-cache", "none", "--spec", "kiddie", str(path)])
    cli = json.loads(capsys.readouterr().out)
    cli_reports = cli["support"][0]["reports"]
    expected = [c for r in cli_reports for s in r["sentences"] for c in s["citations"]]

    workspace = Workspace(cli={"spec": "kiddie", "support": True})
    text = path.read_text()
    doc = workspace.open(str(tmp_path / "run3.jsonl"), text)
    seen = []
    for item in doc.items:
        for sentence in doc.sentences(item.index):
            for c in sentence.citations:
                cited, verdict = doc.support_at(c.start)
                assert cited == c
                seen.append({"doc_id": c.doc_id, **verdict.to_dict()})
    assert seen == expected and len(seen) > 30

    # and the findings the editor publishes are the CLI's support findings
    def support_rows(rows):
        return sorted(r for r in rows if r[0].startswith(("citation_un", "citation_weak")))

    editor = support_rows((f.code, f.message) for f in doc.result.findings)
    assert editor == support_rows((f["code"], f["message"]) for f in cli["findings"]) and editor


def test_the_summary_groundedness_is_seed_2s_figure():
    # the text summary computes groundedness without seed 2's models; it must be the same number
    seen = 0
    for name in ("run1.jsonl", "run2.jsonl", "run3.jsonl", "run4.jsonl"):
        run = SupportRun(cache=VerdictCache(), executor="serial")
        result = Checker(None, support=run).check_text((KIDDIE / name).read_text())
        for report in result.support.reports:
            metrics = report.hallucination_metrics()
            assert report.groundedness() == pytest.approx(metrics.groundedness_score, abs=1e-12)
            seen += metrics.num_spans
    assert seen > 50


def test_corpus_documents_are_fetched_in_one_call_for_the_whole_file(tmp_path, monkeypatch):
    from citelens.support.document_text import CorpusDocuments

    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    run_path, documents = run_without_embedded_documents(tmp_path)
    lookup = CorpusDocuments([str(documents)])
    calls: list[list[str]] = []
    source = lookup._source()
    asked = source.get_many
    monkeypatch.setattr(source, "get_many", lambda ids: calls.append(list(ids)) or asked(ids))
    bare = Checker(None, support=SupportRun(cache=VerdictCache(), executor="serial", lookup=lookup))
    result = bare.check_text(run_path.read_text())
    embedded = Checker(None, support=SupportRun(cache=VerdictCache(), executor="serial"))
    expected = embedded.check_text((KIDDIE / "run1.jsonl").read_text())
    cited = {json.loads(line)["id"] for line in documents.read_text().splitlines()}
    assert len(calls) == 1 and set(calls[0]) == cited
    verdicts = [v.verdict for r in result.support.reports for s in r.sentences for v in s.verdicts]
    assert verdicts == [v.verdict for r in expected.support.reports for s in r.sentences for v in s.verdicts]
    assert len(verdicts) > 20


def test_another_amount_is_said_in_the_finding():
    # DRAGUN garag run, topic 25, against a passage of the article it cites
    passage = (
        "The Super League clubs expect they’ll generate more. J.P. Morgan has agreed to underwrite an "
        "initial $4.2 billion, according to Al-Jazeera."
    )
    report = {
        "responses": [
            {"text": "J.P. Morgan provided €3.5 billion financing for the Super League.", "citations": ["sl"]}
        ]
    }
    run = SupportRun(documents={"sl": passage}, executor="serial")
    result = Checker(None, support=run).check_text(json.dumps(report))
    [finding] = [f for f in result.findings if f.code == "citation_unsupported"]
    assert "gives another amount than 3500000000" in finding.message


def test_a_cached_row_of_another_layout_is_judged_again(tmp_path):
    import sqlite3

    text = (KIDDIE / "run1.jsonl").read_text()
    cache_path = tmp_path / "verdicts.sqlite"
    first = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    cold = Checker(None, support=first).check_text(text)
    first.cache.close()
    with sqlite3.connect(cache_path) as db:  # one row rewritten in a shape this version does not read
        db.execute("UPDATE verdict_rows SET row = '[\"supported\", 1.0]' WHERE rowid = 1")
    second = SupportRun(cache=VerdictCache(cache_path), executor="serial")
    warm = Checker(None, support=second).check_text(text)
    assert second.cache.misses == 1
    assert [f.message for f in warm.findings] == [f.message for f in cold.findings]


def test_a_verdict_whose_evidence_holds_a_lone_surrogate_is_stored_and_read_back(tmp_path):
    from citelens.support.verdict import Evidence, SupportVerdict, Verdict

    verdict = SupportVerdict(Verdict.SUPPORTED, 1.0, (Evidence(0, 6, "worms\ud800"),))
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    cache.put("k", verdict)
    cache.flush()
    cache.close()
    again = VerdictCache(tmp_path / "verdicts.sqlite")
    assert again.get_many(["k"])["k"].evidence[0].text == "worms\ud800"
