"""A setting written into a project file (the editor's "Select Track Spec", "Use in This
Workspace"; the server's writeSetting and pickSpec) and the user's trust record never
overwrite a change made to that file after it was read: the write is refused with a
message saying what changed, and the other change stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.config import trust
from citelens.config.settings_edit import setting_edit
from citelens.files import FileError
from citelens.files import write as file_write


def _run(folder: Path) -> Path:
    run = folder / "run.jsonl"
    run.write_text('{"metadata": {"run_id": "r", "topic_id": "1"}, "responses": []}\n', encoding="utf-8")
    return run


def test_a_project_file_saved_after_the_edit_was_computed_is_not_overwritten(tmp_path: Path) -> None:
    project = tmp_path / "citelens.toml"
    project.write_text('spec = "rag25"\n', encoding="utf-8")
    edit = setting_edit(_run(tmp_path), "spec", "rag26")
    project.write_text('spec = "rag25"\ntopics = "topics.tsv"  # saved by the user meanwhile\n')
    with pytest.raises(FileError) as caught:
        edit.apply()
    assert "changed while citelens worked on it" in str(caught.value)
    assert str(project) in str(caught.value)
    assert "saved by the user meanwhile" in project.read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_change_during_the_write_itself_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "citelens.toml"
    project.write_text('spec = "rag25"\n', encoding="utf-8")
    edit = setting_edit(_run(tmp_path), "spec", "rag26")

    def meanwhile(target: str) -> None:
        with open(target, "a", encoding="utf-8") as f:
            f.write("strict = true\n")

    monkeypatch.setattr(file_write, "before_replace", meanwhile)
    with pytest.raises(FileError, match="changed while citelens worked on it"):
        edit.apply()
    assert project.read_text() == 'spec = "rag25"\nstrict = true\n'


def test_a_project_file_created_meanwhile_is_not_replaced(tmp_path: Path) -> None:
    edit = setting_edit(_run(tmp_path), "spec", "rag26")
    assert edit.created
    (tmp_path / "citelens.toml").write_text('topics = "mine.tsv"\n', encoding="utf-8")
    with pytest.raises(FileError, match="was created while citelens worked on it"):
        edit.apply()
    assert (tmp_path / "citelens.toml").read_text() == 'topics = "mine.tsv"\n'


def test_an_unchanged_project_file_is_written(tmp_path: Path) -> None:
    project = tmp_path / "citelens.toml"
    project.write_text('# mine\nspec = "rag25"\n', encoding="utf-8")
    setting_edit(_run(tmp_path), "spec", "rag26").apply()
    assert project.read_text() == '# mine\nspec = "rag26"\n'


def test_a_trust_given_meanwhile_by_another_command_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a" / "citelens.toml", tmp_path / "b" / "citelens.toml"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text('spec = "rag25"\n', encoding="utf-8")
    trust.trust(first)  # the store exists now

    def another_trust_command(target: str) -> None:
        monkeypatch.setattr(file_write, "before_replace", None)
        trust.trust(second)

    monkeypatch.setattr(file_write, "before_replace", another_trust_command)
    with pytest.raises(FileError, match="changed while citelens worked on it"):
        trust.revoke(first)
    assert {t.path for t in trust.trusted_files()} == {first, second}
