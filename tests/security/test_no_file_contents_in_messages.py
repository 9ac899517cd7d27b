"""A project file that names some other file as its topics or spec file cannot make a
message print that file: the message says what was expected and what the file looks like."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.topics import TopicFileError, load_topics, parse_topics

SECRET = "hunter2-do-not-print"


def _check(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citelens", "check", "run.jsonl"],
        capture_output=True, text=True, timeout=120, cwd=project, env={**os.environ, "SOME_SECRET": SECRET},
    )  # fmt: skip


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_topics_set_to_the_process_environment_does_not_print_it(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\ntopics = "/proc/self/environ"\n')
    (tmp_path / "run.jsonl").write_text(Path(__file__).with_name("run.jsonl").read_text())
    done = _check(tmp_path)
    assert SECRET not in done.stdout + done.stderr and "SOME_SECRET" not in done.stdout + done.stderr
    assert "not a topics file: expected TSV (id<TAB>text), JSON lines or a JSON array" in done.stderr
    assert "binary data" in done.stderr and "its content is not shown" in done.stderr
    assert done.returncode == 2 and "internal error" not in done.stderr


def test_a_text_file_that_is_no_topics_file_is_described_not_quoted(tmp_path: Path) -> None:
    key = tmp_path / "id_rsa"
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END-----\n")
    with pytest.raises(TopicFileError) as info:
        load_topics(key)
    message = str(info.value)
    assert "BEGIN" not in message and "b3Bl" not in message
    assert "text (" in message and "on 3 lines" in message and "content is not shown" in message


def test_a_topics_file_keeps_its_short_escaped_excerpt() -> None:
    with pytest.raises(TopicFileError) as info:
        parse_topics("1\tfirst\nwords without a tab\x1b[31m\n", "topics.tsv")
    assert info.value.line == 2 and "'words without a tab\\x1b[31m'" in info.value.reason


def test_a_spec_file_that_is_not_one_is_not_quoted(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yml"
    spec.write_text(f"{SECRET} something: [unclosed\n")
    (tmp_path / "citelens.toml").write_text('spec = "spec.yml"\n')
    (tmp_path / "run.jsonl").write_text(Path(__file__).with_name("run.jsonl").read_text())
    done = _check(tmp_path)
    assert SECRET not in done.stdout + done.stderr
    assert "spec.yml" in done.stderr and done.returncode == 2
