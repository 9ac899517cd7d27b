"""A re-check of an unchanged run reads its finished support back (support/finished.py):
the same output as judging it, and judged again whenever anything it came from changed."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from citelens.check.engine import Checker
from citelens.check.finding import Finding, Target
from citelens.cli import main
from citelens.support.cache import VerdictCache
from citelens.support.finished import _restored
from citelens.support.run import SupportRun
from tests.helpers.kiddie_runs import KIDDIE, run_without_embedded_documents


@pytest.fixture
def bare_run(tmp_path, monkeypatch):
    """Kiddie run 1 citing documents kept in a corpus file (indexed in this test's cache)."""
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    return run_without_embedded_documents(tmp_path)


def _check(capsys, run: Path, docs: Path, cache: str, *extra: str) -> str:
    main(["check", str(run), "--support", "--docs", str(docs), "--support-cache", cache, *extra])
    return capsys.readouterr().out


def _no_judging(monkeypatch) -> None:
    def refuse(self, views):
        raise AssertionError("an unchanged run was judged again")

    monkeypatch.setattr(SupportRun, "prepare", refuse)


def test_an_unchanged_run_prints_the_same_without_being_judged(bare_run, tmp_path, capsys, monkeypatch):
    run, docs = bare_run
    cache = str(tmp_path / "verdicts.sqlite")
    cold_text = _check(capsys, run, docs, cache)
    cold_json = _check(capsys, run, docs, str(tmp_path / "other.sqlite"), "--format", "json")
    assert "citation_unsupported" in cold_text and "support: " in cold_text
    _no_judging(monkeypatch)

    def no_reading(self, doc_ids):
        raise AssertionError("the corpus file's version should have vouched for its documents")

    monkeypatch.setattr(SupportRun, "_hashes_now", no_reading)
    assert _check(capsys, run, docs, cache) == cold_text
    # the JSON verdicts come back from the same entry as the text summary did
    assert _check(capsys, run, docs, cache, "--format", "json") == cold_json


def test_a_changed_document_is_judged_again(bare_run, tmp_path, capsys):
    run, docs = bare_run
    cache = str(tmp_path / "verdicts.sqlite")
    cold = _check(capsys, run, docs, cache)
    rows = [json.loads(line) for line in docs.read_text().splitlines()]
    for row in rows:  # the document behind the run's first, supported sentence says nothing now
        if row["id"] == "Chlorophyll":
            row["text"] = "Hockey is played on ice."
    docs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    warm = _check(capsys, run, docs, cache)
    fresh = _check(capsys, run, docs, "none")
    assert warm == fresh and warm != cold


def test_a_corpus_version_covers_its_files_and_its_index(bare_run):
    from citelens.corpus.local_sources import CorpusFileSource

    _, docs = bare_run
    source = CorpusFileSource(docs)
    before = source.version()
    source.get_many(["Chlorophyll"])  # a small corpus is indexed on first use
    indexed = source.version()
    assert before is not None and indexed is not None and indexed != before
    with docs.open("a") as fh:
        fh.write(json.dumps({"id": "new", "text": "A new document."}) + "\n")
    assert source.version() not in (before, indexed)
    source.close()


def test_other_severities_are_not_served_from_the_entry(bare_run, tmp_path, capsys):
    run, docs = bare_run
    cache = str(tmp_path / "verdicts.sqlite")
    assert "citation_weak" in _check(capsys, run, docs, cache)
    (run.parent / "citelens.toml").write_text('[severity]\ncitation_weak = "ignore"\n')
    assert "citation_weak" not in _check(capsys, run, docs, cache)


def test_a_source_that_cannot_tell_its_version_is_compared_document_by_document(tmp_path, monkeypatch):
    text = (KIDDIE / "run1.jsonl").read_text()
    reports = [json.loads(line) for line in text.splitlines()]
    documents = {k: d["text"] for r in reports for k, d in r.pop("documents").items()}
    bare = "".join(json.dumps(r) + "\n" for r in reports)

    def checked(docs: dict[str, str]):
        run = SupportRun(
            cache=VerdictCache(tmp_path / "verdicts.sqlite"),
            executor="serial",
            lookup=lambda doc_id, report: docs.get(doc_id),  # no `version`: like a service
        )
        result = Checker(None, support=run, cache_size=0).check_text(bare)
        run.cache.close()
        return [(f.code, f.start, f.message) for f in result.findings]

    cold = checked(documents)
    with monkeypatch.context() as m:
        _no_judging(m)
        assert checked(documents) == cold
    changed = {**documents, "Chlorophyll": "Hockey is played on ice."}
    assert checked(changed) != cold


def test_a_damaged_entry_is_judged_again(bare_run, tmp_path, capsys):
    run, docs = bare_run
    cache = tmp_path / "verdicts.sqlite"
    cold = _check(capsys, run, docs, str(cache))
    with sqlite3.connect(cache) as db:
        db.execute("UPDATE finished_files SET findings = X'00ff'")
    assert _check(capsys, run, docs, str(cache)) == cold


def test_restored_findings_are_the_findings_that_were_kept():
    made = [
        Finding(
            "citation_weak",
            "info",
            "document 'd' supports …",
            "/responses/0/citations/1",
            Target.VALUE,
            5,
            9,
            "t1",
        ),
        Finding(
            "citation_unsupported", "warning", "none of the 2", "/responses/1/text", Target.KEY, 20, 31, None
        ),
    ]
    columns = [
        [getattr(f, name) for f in made]
        for name in ("start", "end", "code", "severity", "message", "pointer")
    ]
    columns += [[f.target.value for f in made], [f.topic_id for f in made]]
    restored = _restored(columns)
    for kept, back in zip(made, restored, strict=True):  # every field, so a new one is noticed
        assert all(getattr(back, f.name) == getattr(kept, f.name) for f in fields(Finding))
    assert restored == made


def test_the_program_ends_with_its_whole_output_and_exit_code(bare_run, tmp_path):
    """`citelens` leaves without the interpreter's teardown: nothing may be lost by it."""
    run, docs = bare_run
    argv = [
        "check",
        str(run),
        "--support",
        "--docs",
        str(docs),
        "--support-cache",
        str(tmp_path / "c.sqlite"),
        "--strict",  # every finding an error: the exit code says so
    ]
    first = subprocess.run([sys.executable, "-m", "citelens", *argv], capture_output=True, text=True)
    again = subprocess.run([sys.executable, "-m", "citelens", *argv], capture_output=True, text=True)
    assert first.returncode == again.returncode == 1
    assert first.stdout == again.stdout and first.stdout.endswith("\n")
    assert first.stdout.splitlines()[-1].startswith("support: ") and "run: 5 reports" in first.stdout


def test_a_cache_file_that_cannot_keep_entries_costs_only_the_speed(bare_run, tmp_path, capsys):
    run, docs = bare_run
    cache = tmp_path / "verdicts.sqlite"
    with sqlite3.connect(cache) as db:  # a table of that name in another shape: reads and writes fail
        db.execute("CREATE TABLE finished_files (key TEXT)")
    fresh = _check(capsys, run, docs, "none")
    assert _check(capsys, run, docs, str(cache)) == fresh
    assert _check(capsys, run, docs, str(cache)) == fresh
