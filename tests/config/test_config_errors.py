"""A broken config -> one clear error with the file, the line and the accepted values."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.config import ConfigError, settings_for


def error_for(tmp_path: Path, name: str, text: str) -> ConfigError:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        settings_for(tmp_path / "run.jsonl")
    return info.value


def test_unknown_code_names_the_file_line_and_known_codes(tmp_path: Path) -> None:
    err = error_for(tmp_path, "citelens.toml", 'spec = "rag26"\n\n[severity]\nempty_answers = "ignore"\n')
    assert err.path == tmp_path / "citelens.toml" and err.line == 4
    assert "unknown finding code 'empty_answers' (did you mean 'empty_answer'?)" in err.reason
    assert "citation_format" in err.reason  # the known codes are listed
    assert str(err).startswith(f"{tmp_path / 'citelens.toml'}:4: ")


def test_unknown_severity_value_names_the_known_values(tmp_path: Path) -> None:
    err = error_for(
        tmp_path,
        "pyproject.toml",
        '[tool.citelens]\nstrict = false\n\n[tool.citelens.severity]\nlength = "off"\n',
    )
    assert err.line == 5
    assert "must be one of error, warning, info, ignore, not 'off'" in err.reason


def test_unknown_code_in_an_inline_table_points_at_its_line(tmp_path: Path) -> None:
    err = error_for(tmp_path, "citelens.toml", 'strict = true\nseverity = { nope = "info" }\n')
    assert err.line == 2


def test_unknown_setting_and_wrong_types(tmp_path: Path) -> None:
    err = error_for(tmp_path, "citelens.toml", 'spec = "rag26"\ntopic = "t.tsv"\n')
    assert err.line == 2 and "unknown setting 'topic' (did you mean 'topics'?)" in err.reason
    err = error_for(tmp_path, "citelens.toml", 'strict = "yes"\n')
    assert err.line == 1 and "'strict' must be true or false" in err.reason


def test_unknown_spec_and_missing_topics_file(tmp_path: Path) -> None:
    err = error_for(tmp_path, "citelens.toml", '\nspec = "rag62"\n')
    assert err.line == 2 and "neither a built-in spec" in err.reason and "rag26" in err.reason
    err = error_for(tmp_path, "citelens.toml", 'topics = "topics/missing.tsv"\n')
    assert err.line == 1 and str((tmp_path / "topics" / "missing.tsv").resolve()) in err.reason


def test_invalid_toml_gives_the_line_from_tomllib(tmp_path: Path) -> None:
    err = error_for(tmp_path, "citelens.toml", 'spec = "rag26"\nstrict = \n')
    assert err.line == 2 and err.reason.startswith("not valid TOML")


def test_a_broken_pyproject_that_mentions_citelens_is_an_error(tmp_path: Path) -> None:
    err = error_for(tmp_path, "pyproject.toml", '[tool.citelens\nspec = "rag26"\n')
    assert err.path == tmp_path / "pyproject.toml"
