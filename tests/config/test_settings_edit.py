"""Writing a setting for one folder: the project file edited in place (pyproject's
[tool.citelens] included), every other key, comment and line kept, the other folders'
runs keeping their settings."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from citelens.config import ConfigError
from citelens.config.settings_edit import setting_edit
from citelens.session import Workspace
from tests.helpers.workspace_tracks import copy_workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_a_run_in_the_project_folder_edits_the_top_table(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    before = pyproject.read_text()
    shutil.copy(root / "rag25" / "baseline.jsonl", root / "top.jsonl")
    edit = setting_edit(root / "top.jsonl", "spec", "rag26")
    assert edit.path == pyproject and edit.where == "pyproject.toml [tool.citelens]"
    edit.apply()
    assert changed_lines(before, pyproject.read_text()) == ['-spec = "rag25"', '+spec = "rag26"']


def test_a_folder_with_an_override_edits_that_override(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    before = pyproject.read_text()
    setting_edit(root / "ragtime" / "T1_run_1.jsonl", "spec", "ragtime25").apply()
    assert changed_lines(before, pyproject.read_text()) == ['-spec = "ragtime26"', '+spec = "ragtime25"']
    workspace = Workspace()
    assert workspace.settings_for(root / "ragtime" / "T1_run_1.jsonl").spec == "ragtime25"
    assert workspace.settings_for(root / "rag25" / "baseline.jsonl").spec == "rag25"


def test_a_folder_without_one_gets_its_own_override(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    before = pyproject.read_text()
    edit = setting_edit(root / "rag25" / "baseline.jsonl", "spec", "rag25-autojudge")
    assert edit.where == "pyproject.toml [[tool.citelens.overrides]] #2 (rag25/**)"
    edit.apply()
    assert changed_lines(before, pyproject.read_text()) == [
        "+",
        "+[[tool.citelens.overrides]]",
        '+files = ["rag25/**"]',
        '+spec = "rag25-autojudge"',
    ]
    workspace = Workspace()
    assert workspace.settings_for(root / "rag25" / "baseline.jsonl").spec == "rag25-autojudge"
    ragtime = workspace.settings_for(root / "ragtime" / "T1_run_1.jsonl")
    assert (ragtime.spec, ragtime.topics) == ("ragtime26", root / "ragtime" / "topics.jsonl")


def test_a_missing_key_goes_after_the_tables_last_key_and_paths_are_relative(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text().replace('topics = "rag25/topics.jsonl"\n', "")
    pyproject.write_text(text + "\n[tool.other]\nkeep = 1  # a comment\n")
    before = pyproject.read_text()
    setting_edit(root / "top.jsonl", "topics", str(root / "rag25" / "topics.jsonl")).apply()
    after = pyproject.read_text()
    assert changed_lines(before, after) == ['+topics = "rag25/topics.jsonl"']
    assert after.index('topics = "rag25/topics.jsonl"') < after.index("[[tool.citelens.overrides]]")
    assert "keep = 1  # a comment" in after


def test_a_multi_line_value_is_replaced_whole(tmp_path: Path) -> None:
    config = tmp_path / "citelens.toml"
    config.write_text('# my runs\ncorpora = [\n  "a.jsonl",\n  "b.jsonl",\n]\nstrict = true\n')
    setting_edit(tmp_path / "run.jsonl", "corpora", [str(tmp_path / "docs" / "c.jsonl")]).apply()
    assert config.read_text() == '# my runs\ncorpora = ["docs/c.jsonl"]\nstrict = true\n'


def test_with_no_project_file_a_new_one_is_made(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    edit = setting_edit(tmp_path / "runs" / "a.jsonl", "spec", "rag25", folder_of=tmp_path)
    assert (edit.created, edit.path) == (True, tmp_path / "citelens.toml")
    assert edit.result == '[[overrides]]\nfiles = ["runs/**"]\nspec = "rag25"\n'
    edit = setting_edit(tmp_path / "a.jsonl", "spec", "rag25")
    assert edit.result == 'spec = "rag25"\n'


def test_a_value_the_file_cannot_take_is_refused(root: Path) -> None:
    with pytest.raises(ConfigError, match="would break the file"):
        setting_edit(root / "top.jsonl", "spec", "no-such-spec")
