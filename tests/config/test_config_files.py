"""A project with a config file in -> the settings `citelens check` runs with."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.config import Settings, find_config, load_config, settings_for


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """runs/2026/ under a project whose citelens.toml names a spec and topics file."""
    write(tmp_path / "topics" / "queries.tsv", "rag2026-0\tfirst\n")
    write(
        tmp_path / "citelens.toml",
        'spec = "rag26"\ntopics = "topics/queries.tsv"\nstrict = true\n\n'
        '[severity]\nempty_answer = "ignore"\nmissing_topics = "error"\n',
    )
    (tmp_path / "runs" / "2026").mkdir(parents=True)
    return tmp_path


def test_settings_for_a_run_come_from_the_nearest_config(project: Path) -> None:
    run = write(project / "runs" / "2026" / "team.jsonl", "")
    settings = settings_for(run)
    assert settings == Settings(
        spec="rag26",
        topics=(project / "topics" / "queries.tsv").resolve(),
        strict=True,
        severity={"empty_answer": "ignore", "missing_topics": "error"},
        source=project / "citelens.toml",
    )


def test_no_config_anywhere_gives_the_defaults(tmp_path: Path) -> None:
    assert find_config(tmp_path / "run.jsonl") is None
    assert settings_for(tmp_path / "run.jsonl") == Settings()
    defaults = Settings()
    assert (defaults.spec, defaults.topics, defaults.strict, dict(defaults.severity)) == (
        None,
        None,
        False,
        {},
    )


def test_nearest_wins_and_pyproject_without_our_table_does_not_stop_the_walk(project: Path) -> None:
    write(project / "runs" / "pyproject.toml", '[project]\nname = "runs"\n[tool.ruff]\nline-length = 100\n')
    assert find_config(project / "runs" / "2026" / "x.jsonl") == project / "citelens.toml"
    write(project / "runs" / "2026" / "pyproject.toml", '[tool.citelens]\nspec = "ragtime26"\n')
    found = find_config(project / "runs" / "2026" / "x.jsonl")
    assert found == project / "runs" / "2026" / "pyproject.toml"
    assert load_config(found).spec == "ragtime26"
    assert load_config(found).strict is False  # nothing is inherited from the outer file


def test_citelens_toml_beats_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.citelens]\nspec = "rag25"\n')
    write(tmp_path / "citelens.toml", 'spec = "rag26"\n')
    assert settings_for(tmp_path / "run.jsonl").spec == "rag26"


def test_spec_file_paths_are_resolved_against_the_config_directory(tmp_path: Path) -> None:
    spec = write(tmp_path / "specs" / "mine.toml", "[specs.mine]\n")
    write(
        tmp_path / "pyproject.toml",
        '[tool.citelens]\nspec = "specs/mine.toml#mine"\n[tool.citelens.severity]\nlength = "info"\n',
    )
    settings = settings_for(tmp_path / "deep" / "er" / "run.jsonl")
    assert settings.spec == f"{spec.resolve()}#mine"
    assert settings.severity == {"length": "info"}


def test_inline_and_dotted_severity_tables(tmp_path: Path) -> None:
    write(tmp_path / "citelens.toml", 'severity = { length = "warning" }\n')
    assert settings_for(tmp_path).severity == {"length": "warning"}
    write(tmp_path / "citelens.toml", 'severity.length = "info"\n')
    assert settings_for(tmp_path).severity == {"length": "info"}


def test_an_empty_citelens_toml_is_all_defaults(tmp_path: Path) -> None:
    config = write(tmp_path / "citelens.toml", "# nothing yet\n")
    assert settings_for(tmp_path) == Settings(source=config)
