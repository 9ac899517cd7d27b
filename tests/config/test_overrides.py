"""[[overrides]] and nested project files: each folder's runs checked with their own
settings, and every bad entry a located message."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.config import ConfigError
from citelens.config.overrides import load_project
from citelens.session import Workspace
from tests.helpers.workspace_tracks import copy_workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


def test_an_override_sets_a_folders_spec_and_topics(root: Path) -> None:
    workspace = Workspace()
    rag = workspace.settings_for(root / "rag25" / "baseline.jsonl")
    ragtime = workspace.settings_for(root / "ragtime" / "T1_run_1.jsonl")
    assert (rag.spec, rag.topics) == ("rag25", root / "rag25" / "topics.jsonl")
    assert (ragtime.spec, ragtime.topics) == ("ragtime26", root / "ragtime" / "topics.jsonl")
    assert ragtime.origin("spec").endswith("pyproject.toml [[tool.citelens.overrides]] #1 (ragtime/*.jsonl)")
    assert rag.origin("spec") == str(root / "pyproject.toml")


def test_later_overrides_win_and_globs_are_relative_to_the_project_file(tmp_path: Path) -> None:
    (tmp_path / "citelens.toml").write_text(
        'spec = "rag25"\n\n'
        '[[overrides]]\nfiles = ["runs/*.jsonl"]\nspec = "rag26"\nstrict = true\n\n'
        '[[overrides]]\nfiles = ["runs/late_*.jsonl"]\nspec = "ragtime26"\n'
    )
    workspace = Workspace()
    assert workspace.settings_for(tmp_path / "runs" / "a.jsonl").spec == "rag26"
    late = workspace.settings_for(tmp_path / "runs" / "late_a.jsonl")
    assert (late.spec, late.strict) == ("ragtime26", True)  # the earlier table's other keys stay
    assert workspace.settings_for(tmp_path / "other" / "runs" / "a.jsonl").spec == "rag25"  # anchored


def test_the_nearest_project_file_wins(root: Path) -> None:
    (root / "ragtime" / "citelens.toml").write_text('spec = "ragtime25"\n')
    settings = Workspace().settings_for(root / "ragtime" / "T1_run_1.jsonl")
    assert (settings.spec, settings.topics) == ("ragtime25", None)


@pytest.mark.parametrize(
    ("body", "message", "line"),
    [
        ('[[overrides]]\nspec = "rag26"\n', "[[overrides]] #1 needs files = [globs]", 3),
        (
            '[[overrides]]\nfiles = ["a/*"]\nspek = "rag26"\n',
            "unknown setting 'spek' (did you mean 'spec'?)",
            5,
        ),
        ('[[overrides]]\nfiles = ["a/*"]\nexclude = ["b/"]\n', "unknown setting 'exclude'", 5),
        ('[[overrides]]\nfiles = ["a/*"]\ntopics = "none.tsv"\n', "'topics': no file", 5),
        ('exclude = "scratch/"\n', "'exclude' must be a list of gitignore-style globs", 2),
        ("overrides = 3\n", "'overrides' must be an array of tables", 2),
    ],
)
def test_a_bad_override_is_a_located_message(tmp_path: Path, body: str, message: str, line: int) -> None:
    config = tmp_path / "citelens.toml"
    config.write_text('spec = "rag25"\n' + ("\n" if body.startswith("[[") else "") + body)
    with pytest.raises(ConfigError) as err:
        load_project(config)
    assert message in str(err.value)
    assert err.value.line == line


def test_overrides_in_pyproject_are_read_from_tool_citelens(root: Path) -> None:
    project = load_project(root / "pyproject.toml")
    [override] = project.overrides
    assert override.files == ("ragtime/*.jsonl",)
    assert project.exclusion is not None and project.exclusion.exclude == ("scratch/",)
