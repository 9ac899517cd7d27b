"""Nothing a user has is lost when CiteLens writes: a file changed while `--fix` or
`convert --in-place` worked is not overwritten, and no temporary file outlives a run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import citelens.files.write as writer
from citelens.cli import main
from citelens.files import FileError, write_file
from citelens.files.snapshot import Snapshot

RUN = Path(__file__).with_name("run.jsonl")
APPENDED = b'{"metadata": {"run_id": "typed meanwhile"}}\n'


@pytest.fixture
def hook() -> Iterator[list[str]]:
    """The writer pauses before the rename and appends a line to the file, as an editor
    would while `--fix` ran; the list holds the paths it did that to."""
    touched: list[str] = []

    def append(target: str) -> None:
        with open(target, "ab") as fh:
            fh.write(APPENDED)
        touched.append(target)

    writer.before_replace = append
    try:
        yield touched
    finally:
        writer.before_replace = None


def test_fix_refuses_to_overwrite_a_line_appended_meanwhile(
    tmp_path: Path, hook: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.jsonl"
    run.write_bytes(RUN.read_bytes())
    code = main(["check", "--fix", "--unsafe-fixes", "--spec", "rag25", str(run)])
    err = capsys.readouterr().err
    assert hook == [str(run)]
    assert run.read_bytes() == RUN.read_bytes() + APPENDED  # the appended line is still there
    assert f"{run}: the file changed while citelens worked on it (its size changed" in err
    assert "run the command again" in err and code == 2
    assert [p.name for p in tmp_path.iterdir()] == ["run.jsonl"]  # no temporary file left


def test_fix_writes_when_nothing_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_bytes(RUN.read_bytes())
    main(["check", "--fix", "--unsafe-fixes", "--spec", "rag25", str(run)])
    assert "applied" in capsys.readouterr().err and run.read_bytes() != RUN.read_bytes()


def test_convert_in_place_refuses_a_file_changed_meanwhile(
    tmp_path: Path, hook: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.jsonl"
    run.write_bytes(RUN.read_bytes())
    code = main(["convert", str(run), "--to", "ragtime25", "--in-place", "--keep-going", "--quiet"])
    err = capsys.readouterr().err
    assert run.read_bytes() == RUN.read_bytes() + APPENDED
    assert "the file changed while citelens worked on it" in err and code == 2


def test_a_snapshot_tells_content_changes_even_with_the_same_size_and_time(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"abc\n")
    snap = Snapshot.of(path, b"abc\n")
    assert snap.difference(path) is None
    st = path.stat()
    path.write_bytes(b"xyz\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same time
    assert snap.difference(path) == "its content changed"
    with pytest.raises(FileError, match="its content changed"):
        write_file(path, b"new\n", unchanged_since=snap)
    assert path.read_bytes() == b"xyz\n"


def test_sigterm_during_the_write_removes_the_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old\n")
    code = (
        "import os, signal, sys, time; import citelens.files.write as w\n"
        "def pause(target):\n"
        "    print('paused', flush=True); time.sleep(30)\n"
        "w.before_replace = pause\n"
        "w.write_file(sys.argv[1], b'new\\n' * 100000)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "paused\n"
        assert len(list(tmp_path.iterdir())) == 2  # the file and its temporary file
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        proc.kill()
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"] and path.read_bytes() == b"old\n"


def test_temporary_files_of_a_killed_run_are_removed_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old\n")
    code = (
        "import os, signal, sys; import citelens.files.write as w\n"
        "w.before_replace = lambda target: os.kill(os.getpid(), signal.SIGKILL)\n"
        "w.write_file(sys.argv[1], b'new\\n' * 100000)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(path)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    left = [p for p in tmp_path.iterdir() if p.name != "r.jsonl"]
    assert len(left) == 1 and left[0].stat().st_size == 400_000
    old_style = tmp_path / ".r.jsonl.0123abcd.tmp"  # from an earlier version, two hours old
    old_style.write_bytes(b"x")
    os.utime(old_style, (time.time() - 7200, time.time() - 7200))
    other = tmp_path / ".other.jsonl.citelens-1-0123abcd.tmp"  # another file's: not ours to judge here
    other.write_bytes(b"x")
    write_file(path, b"newer\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "r.jsonl"]
    assert path.read_bytes() == b"newer\n"
