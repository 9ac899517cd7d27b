"""Which files of a participant's workspace are runs: the one engine answer the CLI, the
server's workspace diagnostics and "Check All Runs" share."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citelens.session import Workspace
from citelens.session.run_files import RunFinder, find_runs, is_run
from tests.helpers.workspace_tracks import RUNS, copy_workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


def relative(paths: list[str], root: Path) -> list[str]:
    return sorted(Path(p).absolute().relative_to(root).as_posix() for p in paths)


def test_only_the_runs_of_the_workspace_are_found(root: Path) -> None:
    found = find_runs(Workspace(), [str(root)])
    assert relative(found.paths, root) == sorted(RUNS)
    assert found.problems == []


def test_each_skipped_file_says_why(root: Path) -> None:
    skipped = {
        s.path.relative_to(root).as_posix(): s.reason for s in find_runs(Workspace(), [str(root)]).skipped
    }
    assert skipped["rag25/topics.jsonl"].startswith("the topics file (")
    assert skipped["ragtime/topics.jsonl"].startswith("the topics file (")
    assert "[[tool.citelens.overrides]] #1" in skipped["ragtime/topics.jsonl"]
    assert skipped["corpus/msmarco_v2.1_doc_segmented.sample.jsonl"].startswith("a corpus (documents)")
    assert skipped["rag25/dev-nuggets.jsonl"].startswith("JSON records (keys qid, nuggets), not reports")
    assert skipped["rag25/retry.tmp.jsonl"].startswith("ignored by '*.tmp.jsonl'")
    # excluded folders are not walked into: their files are never looked at
    assert not any(p.startswith(("scratch/", "output/")) for p in skipped)


def test_no_respect_gitignore_brings_the_ignored_runs_back(root: Path) -> None:
    found = find_runs(Workspace(), [str(root)], respect_gitignore=False)
    assert relative(found.paths, root) == sorted([*RUNS, "output/converted.jsonl", "rag25/retry.tmp.jsonl"])


def test_respect_gitignore_false_in_the_project_file(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'exclude = ["scratch/"]', 'exclude = ["scratch/"]\nrespect-gitignore = false'
        )
    )
    assert "output/converted.jsonl" in relative(find_runs(Workspace(), [str(root)]).paths, root)


def test_exclude_replaces_the_defaults_and_extend_exclude_adds(root: Path) -> None:
    for folder in (".hidden", ".venv", "node_modules"):
        (root / folder).mkdir()
        shutil.copy(root / "rag25" / "baseline.jsonl", root / folder / "run.jsonl")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text()
    pyproject.write_text(text.replace('exclude = ["scratch/"]', 'extend-exclude = ["scratch/", "ragtime/"]'))
    assert relative(find_runs(Workspace(), [str(root)]).paths, root) == ["rag25/baseline.jsonl"]
    pyproject.write_text(text)  # exclude = ["scratch/"] replaces ".*/": the hidden folder is searched
    found = relative(find_runs(Workspace(), [str(root)]).paths, root)
    assert found == sorted([".hidden/run.jsonl", *RUNS])  # environments never are


def test_a_file_named_on_the_command_line_is_checked_whatever_it_is(root: Path) -> None:
    topics = str(root / "rag25" / "topics.jsonl")
    assert find_runs(Workspace(), [topics]).paths == [topics]


def test_a_folder_without_runs_says_what_it_skipped(root: Path) -> None:
    found = find_runs(Workspace(), [str(root / "corpus")])
    assert found.paths == []
    [problem] = found.problems
    assert "holds no run files (1 skipped: msmarco_v2.1_doc_segmented.sample.jsonl is a corpus" in str(
        problem
    )


def test_an_open_document_is_judged_by_its_text(root: Path) -> None:
    run = root / "rag25" / "baseline.jsonl"
    workspace = Workspace([root])
    assert is_run(workspace, run, run.read_text(), top=root)
    topics_text = (root / "ragtime" / "topics.jsonl").read_text()
    assert not is_run(workspace, root / "rag25" / "draft.jsonl", topics_text, top=root)
    assert not is_run(workspace, root / "scratch" / "draft.jsonl", run.read_text(), top=root)


def test_an_open_document_ignored_by_git_is_still_checked(root: Path) -> None:
    run = root / "output" / "converted.jsonl"  # a run under an ignored folder
    workspace = Workspace([root])
    assert str(run) not in find_runs(workspace, [str(root)]).paths  # a folder walk skips it
    assert is_run(workspace, run, run.read_text(), top=root)  # the editor has it open


def test_a_json_file_without_reports_is_no_run(root: Path) -> None:
    (root / "package.json").write_text('{\n  "name": "x",\n  "version": "1.0.0"\n}\n')
    (root / "one.json").write_text((root / "rag25" / "baseline.jsonl").read_text())
    finder = RunFinder(Workspace(), top=root)
    assert finder.not_a_run(root / "package.json") is not None
    assert finder.not_a_run(root / "one.json") is None
