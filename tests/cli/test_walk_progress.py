"""Looking through a big corpus folder shows progress on a terminal: `check --docs DIR`
and `index DIR` draw one self-overwriting line on stderr while the walk lasts, and clear
it; nothing when stderr is not a terminal, with --quiet, or for a quick walk."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from citelens.cli import main
from citelens.cli import walk_progress as progress_line

RUN = {
    "metadata": {"run_id": "r", "topic_id": "1", "team_id": "t"},
    "responses": [{"text": "Leaves are green.", "citations": ["d7"]}],
}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def corpus_folder(root: Path, folders: int = 40) -> Path:
    """A corpus spread over many folders (as an unpacked download is)."""
    corpus = root / "corpus"
    for n in range(folders):
        part = corpus / f"part{n:03d}" / "shard"
        part.mkdir(parents=True)
        line = json.dumps({"id": f"d{n}", "text": "Leaves are green."})
        (part / "docs.jsonl").write_text(line + "\n", encoding="utf-8")
    return corpus


def _run(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, *argv: object) -> int:
    monkeypatch.setattr(sys, "stderr", stream)
    return main([str(a) for a in argv])


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every walk shown, and redrawn after each folder (a real one waits 0.3 s)."""
    monkeypatch.setattr(progress_line, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(progress_line, "REDRAW_S", 0.0)


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(RUN) + "\n", encoding="utf-8")
    return path


def _lines(err: str) -> list[str]:
    return [part.strip() for part in err.split("\r") if part.strip().startswith("looking for corpus files")]


def test_check_docs_shows_the_walk_of_a_corpus_folder_on_a_terminal_and_clears_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once: None, run_file: Path
) -> None:
    corpus = corpus_folder(tmp_path)
    err = Terminal()
    _run(monkeypatch, err, "check", run_file, "--spec", "rag25", "--docs", corpus, "--format", "json")
    shown = _lines(err.getvalue())
    assert shown, err.getvalue()
    assert shown[0].startswith("looking for corpus files: 1 folders")
    assert "of at most 20,000 entries" in shown[0]
    assert str(corpus)[:40] in shown[0]
    assert "40 files found" in shown[-1]  # the count grows to every file under the folder
    cleared = err.getvalue().rindex("\r" + " " * progress_line.WIDTH + "\r")
    assert cleared > err.getvalue().rindex("looking for corpus files")  # nothing left on the line


def test_index_shows_the_walk_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once: None) -> None:
    corpus = corpus_folder(tmp_path, folders=5)
    err = Terminal()
    assert _run(monkeypatch, err, "index", corpus, "--db", tmp_path / "i.sqlite") == 0
    assert "5 files found" in _lines(err.getvalue())[-1]


@pytest.mark.parametrize("how", ["not a terminal", "--quiet"])
def test_no_progress_off_a_terminal_or_with_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once: None, run_file: Path, how: str
) -> None:
    corpus = corpus_folder(tmp_path, folders=5)
    err = io.StringIO() if how == "not a terminal" else Terminal()
    extra = ["--quiet"] if how == "--quiet" else []
    _run(monkeypatch, err, "check", run_file, "--spec", "rag25", "--docs", corpus, "--format", "json", *extra)
    assert "looking for corpus files" not in err.getvalue()
    err = io.StringIO() if how == "not a terminal" else Terminal()
    _run(monkeypatch, err, "index", corpus, "--db", tmp_path / "i.sqlite", *extra)
    assert "looking for corpus files" not in err.getvalue() and "\r" not in err.getvalue()


def test_a_quick_walk_of_a_small_folder_shows_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_file: Path
) -> None:
    corpus = corpus_folder(tmp_path, folders=3)
    err = Terminal()
    _run(monkeypatch, err, "check", run_file, "--spec", "rag25", "--docs", corpus, "--format", "json")
    assert "looking for corpus files" not in err.getvalue()


def test_a_walk_stopped_by_its_limit_clears_its_line_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once: None
) -> None:
    corpus = corpus_folder(tmp_path, folders=30)
    monkeypatch.setenv("CITELENS_CORPUS_WALK_ENTRIES", "40")
    err = Terminal()
    assert _run(monkeypatch, err, "index", corpus, "--db", tmp_path / "i.sqlite") != 0
    text = err.getvalue()
    assert "stopped looking for corpus files after 40 folder entries" in text
    assert text.rindex("\r" + " " * progress_line.WIDTH + "\r") < text.index("stopped looking")
