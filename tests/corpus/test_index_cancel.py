"""A build the caller cancels stops between committed batches, is never complete, and the
next build resumes it to the index an uninterrupted build makes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from citelens.corpus import IndexSource
from citelens.corpus.index_build import IndexCancelled, build_index
from tests.helpers.corpus_samples import write_corpus


def _rows(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, line, raw FROM docs ORDER BY id").fetchall()
    finally:
        con.close()


@pytest.mark.slow  # builds an index while interrupting or reading it
def test_a_cancelled_build_is_partial_and_the_next_one_resumes(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    write_corpus(corpus, "neuclir", 150_000, words=8)
    db = tmp_path / "idx.sqlite"
    seen: list[int] = []

    def stop_after_first_batch() -> bool:
        return bool(seen) and seen[-1] > 0

    with pytest.raises(IndexCancelled):
        build_index([corpus], db, on_progress=lambda p: seen.append(p.docs), cancelled=stop_after_first_batch)
    source = IndexSource(db)
    try:
        assert source.incomplete_reason() is not None
    finally:
        source.close()
    kept = len(_rows(db))
    assert kept < 150_000
    report = build_index([corpus], db)
    assert [f.action for f in report.files] == ["resumed"] and report.docs_added == 150_000 - kept
    reference = tmp_path / "ref.sqlite"
    build_index([corpus], reference)
    assert _rows(db) == _rows(reference)
