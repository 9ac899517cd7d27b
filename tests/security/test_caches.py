"""An unusable verdict cache never costs a result: read-only, damaged, locked or of
another layout, the check gives the same findings as without a cache, with one warning."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citelens.check.engine import Checker
from citelens.specs import resolve_spec
from citelens.support.cache import VerdictCache
from citelens.support.run import SupportRun
from tests.helpers.unprivileged import shared_folder, unprivileged

RUN = Path(__file__).parents[1] / "support" / "data" / "run1.jsonl"
Found = list[tuple[str, int, int, str]]


def _check(cache_path: Path | None, text: str | None = None) -> tuple[Found, list[str]]:
    """The findings of the run checked with a verdict cache at `cache_path` (`text`: the
    run, read beforehand by a caller whose checkout the unprivileged user may not read)."""
    warnings: list[str] = []
    cache = VerdictCache(cache_path, warn=warnings.append)
    run = SupportRun(cache=cache, executor="serial")
    run_text = text if text is not None else RUN.read_text(encoding="utf-8")
    result = Checker(resolve_spec("kiddie"), support=run).check_text(run_text)
    cache.close()
    return [(f.code, f.start, f.end, f.message) for f in result.findings], warnings


@pytest.fixture(scope="module")
def without_cache() -> Found:
    found, warnings = _check(None)
    assert any(code.startswith("citation_") for code, *_ in found) and not warnings
    return found


def test_a_damaged_cache_is_moved_aside_and_rebuilt(tmp_path: Path, without_cache: Found) -> None:
    path = tmp_path / "support.sqlite"
    path.write_bytes(b"this is not an SQLite file, just garbage " * 100)
    found, warnings = _check(path)
    assert found == without_cache
    assert len(warnings) == 1 and "was damaged; it was moved to support.sqlite.damaged-" in warnings[0]
    aside = list(tmp_path.glob("support.sqlite.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not an SQLite file")
    # the new file holds the verdicts: the next check uses it, with no warning
    assert sqlite3.connect(path).execute("SELECT count(*) FROM verdict_rows").fetchone()[0] > 0
    again, warnings = _check(path)
    assert again == without_cache and warnings == []


def test_a_cache_of_another_layout_is_left_alone(tmp_path: Path, without_cache: Found) -> None:
    path = tmp_path / "support.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE verdict_rows (id INTEGER, payload BLOB)")
    found, warnings = _check(path)
    assert found == without_cache
    assert (
        len(warnings) == 1 and "has a layout this version does not know; checking without it" in warnings[0]
    )
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(verdict_rows)")]
    assert columns == ["id", "payload"]  # not ours to change


def test_a_locked_cache_is_waited_for_briefly_then_done_without(tmp_path: Path, without_cache: Found) -> None:
    path = tmp_path / "support.sqlite"
    VerdictCache(path).connection()  # a valid cache file
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of a write
    try:
        started = time.monotonic()
        found, warnings = _check(path)
        took = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert found == without_cache
    assert len(warnings) == 1 and "is locked by another process" in warnings[0]
    assert took < 15, f"{took:.1f} s"  # one short wait, not 30 s per statement


def test_a_read_only_cache_folder_is_done_without() -> None:
    with shared_folder() as folder:
        (folder / "cache").mkdir()
        (folder / "cache").chmod(0o555)  # readable, not writable, by the unprivileged user
        text = RUN.read_text(encoding="utf-8")  # here: a checkout may be private to its owner
        found, warnings = unprivileged(lambda: _check(folder / "cache" / "sub" / "support.sqlite", text))  # type: ignore[misc]
        plain, _ = unprivileged(lambda: _check(None, text))  # type: ignore[misc]
    assert found == plain
    assert len(warnings) == 1 and "cannot be written" in warnings[0]


def test_check_support_with_a_garbage_cache_gives_its_findings_and_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "support.sqlite"
    path.write_bytes(b"\x00garbage" * 512)

    def check(cache: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "citelens", "check", "--support", "--spec", "kiddie", "--support-cache", cache, str(RUN)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    damaged, plain = check(str(path)), check("none")
    assert damaged.returncode == plain.returncode == 0, damaged.stderr
    assert damaged.stdout == plain.stdout and "internal error" not in damaged.stderr
    assert damaged.stderr.count("warning: the verdict cache") == 1


def test_a_damaged_or_locked_fetched_documents_cache_costs_no_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from citelens.corpus import open_sources
    from citelens.corpus.cache_dir import service_cache_path
    from tests.helpers.http_service import running_service

    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    with running_service() as service:
        path = service_cache_path(service.url)
        path.parent.mkdir(parents=True)
        path.write_bytes(b"garbage, not SQLite " * 50)
        answer = open_sources([service.url]).get_many(["d1"])
        assert answer.documents["d1"] is not None and not answer.unanswered
        assert list(path.parent.glob(f"{path.name}.damaged-*")) and "was damaged" in caplog.text
        holder = sqlite3.connect(path, isolation_level=None)  # the rebuilt cache, now held by another process
        holder.execute("BEGIN EXCLUSIVE")
        try:
            locked = open_sources([service.url]).get_many(["d2"])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert locked.documents["d2"] is not None and not locked.unanswered
    assert "is locked by another process" in caplog.text
