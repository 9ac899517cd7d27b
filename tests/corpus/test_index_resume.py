"""An index build killed mid-way resumes to the same index; a reader during a build sees whole documents only."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citelens.corpus import IndexSource
from citelens.corpus.index_build import build_index
from citelens.corpus.index_store import IndexReader
from tests.helpers.corpus_samples import write_corpus

#: big enough that a build spans several committed batches
COUNT = 120_000


def _start_build(corpus: Path, db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "citelens", "index", str(corpus), "--db", str(db), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _committed_docs(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return int(con.execute("SELECT COALESCE(SUM(docs), 0) FROM files").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _dump(db: Path) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db)
    try:
        docs = con.execute("SELECT id, line, raw FROM docs ORDER BY id").fetchall()
        files = con.execute("SELECT path, size, consumed, lines, docs, bad, complete FROM files").fetchall()
        return [*files, *docs]
    finally:
        con.close()


@pytest.mark.slow  # builds an index while interrupting or reading it
def test_a_build_killed_mid_way_is_partial_and_the_next_run_ends_identical(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    write_corpus(corpus, "neuclir", COUNT, words=20)
    whole = tmp_path / "whole.sqlite"
    build_index([corpus], whole)

    killed = tmp_path / "killed.sqlite"
    proc = _start_build(corpus, killed)
    deadline = time.monotonic() + 120
    while _committed_docs(killed) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = _committed_docs(killed)
    assert 0 < partial < COUNT, "the kill should land mid-build"

    # the partial index finds what it has and never claims the rest is absent
    source = IndexSource(killed)
    answer = source.get_many(["surely-not-an-id"])
    assert "still being built" in answer.unanswered["surely-not-an-id"]
    source.close()

    resumed = build_index([corpus], killed)
    assert [f.action for f in resumed.files] == ["resumed"]
    assert resumed.docs_added == COUNT - partial
    assert _dump(killed) == _dump(whole)


@pytest.mark.slow  # builds an index while interrupting or reading it
def test_a_reader_during_a_build_never_sees_a_torn_document(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    records = write_corpus(corpus, "climbmix", COUNT, words=20)
    expected = {r["id"]: r for r in records}
    ids = list(expected)
    db = tmp_path / "i.sqlite"
    proc = _start_build(corpus, db)
    rng = random.Random(5)
    reader: IndexReader | None = None
    partial_views = lookups = 0
    try:
        while proc.poll() is None:
            if reader is None:
                if not db.exists() or _committed_docs(db) == 0:
                    time.sleep(0.005)
                    continue
                reader = IndexReader(db)
            answer = reader.get_many(rng.sample(ids, 200))
            found = answer.found()
            lookups += 1
            for doc_id, doc in found.items():
                assert doc.fields == expected[doc_id]
                assert doc.text == expected[doc_id]["contents"]
            if 0 < len(found) < 200:
                partial_views += 1
    finally:
        proc.wait()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert partial_views > 0, f"no lookup happened mid-build ({lookups} lookups)"
    assert reader is not None
    assert len(reader.get_many(ids[:1000]).found()) == 1000
