"""The `support_model` table: where a model judge's endpoint, model and key variable come
from besides the command line and the environment (the user's config file, a trusted
project file, the editor's settings), what an untrusted project file may not set, and
the messages a wrong table gets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from citelens.cli import main
from citelens.config.error import ConfigError
from citelens.config.loader import load_config
from citelens.session import Workspace
from tests.helpers.chat_server import Reply, chat_server
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, cited_verdicts, write_run


@pytest.fixture(autouse=True)
def _no_model_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CITELENS_LLM_ENDPOINT", "CITELENS_LLM_MODEL", "CITELENS_LLM_KEY_ENV", "CITELENS_NLI_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _check(capsys, run: Path) -> tuple[int, list[dict], str]:
    code = main(["check", str(run), "--format", "json", "--support-cache", "none", "--executor", "serial"])
    captured = capsys.readouterr()
    return code, cited_verdicts(captured.out), captured.err


def _project(folder: Path, table: str) -> Path:
    path = folder / "citelens.toml"
    path.write_text(f'spec = "kiddie"\nsupport = true\nsupport_judge = "llm"\n\n[support_model]\n{table}')
    return path


def test_the_users_config_file_names_the_model(tmp_path: Path, capsys) -> None:
    run = write_run(tmp_path, [(SENTENCE, ["Earthworm"])], {"Earthworm": DOCUMENT})
    (tmp_path / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\nsupport_judge = "llm"\n')
    user = Path(os.environ["CITELENS_CONFIG_DIR"])
    user.mkdir(parents=True, exist_ok=True)
    with chat_server(lambda body: Reply("Partial Support")) as server:
        (user / "config.toml").write_text(f'[support_model]\nendpoint = "{server.url}"\nmodel = "mine"\n')
        _code, verdicts, err = _check(capsys, run)
    assert [(v["judge"], v["verdict"]) for v in verdicts] == [("llm:mine", "partial")]
    assert server.requests[0].body["model"] == "mine" and "not trusted" not in err


def test_an_untrusted_project_file_cannot_name_the_model_a_trusted_one_can(tmp_path: Path, capsys) -> None:
    run = write_run(tmp_path, [(SENTENCE, ["Earthworm"])], {"Earthworm": DOCUMENT})
    with chat_server(lambda body: Reply("No Support")) as server:
        project = _project(tmp_path, f'endpoint = "{server.url}"\nmodel = "theirs"\nkey_env = "HOME"\n')
        _code, verdicts, err = _check(capsys, run)
        assert server.requests == []  # nothing sent, and no key read
        assert [v["judge"] for v in verdicts] == ["lexical"]
        assert "not trusted" in err and "citelens trust" in err and "judged lexically" in err
        assert main(["trust", str(project)]) == 0
        capsys.readouterr()
        _code, verdicts, err = _check(capsys, run)
    assert [(v["judge"], v["verdict"]) for v in verdicts] == [("llm:theirs", "unsupported")]
    assert len(server.requests) == 1


def test_the_command_line_wins_over_the_table(tmp_path: Path, capsys) -> None:
    run = write_run(tmp_path, [(SENTENCE, ["Earthworm"])], {"Earthworm": DOCUMENT})
    user = Path(os.environ["CITELENS_CONFIG_DIR"])
    user.mkdir(parents=True, exist_ok=True)
    with chat_server() as server:
        (user / "config.toml").write_text(f'[support_model]\nendpoint = "{server.url}"\nmodel = "table"\n')
        main(["check", str(run), "--spec", "kiddie", "--support", "--judge", "llm", "--llm-model", "flag",
              "--support-cache", "none", "--executor", "serial"])  # fmt: skip
        capsys.readouterr()
    assert [r.body["model"] for r in server.requests] == ["flag"]


@pytest.mark.parametrize(
    ("table", "message", "line"),
    [
        ('endpoint = "http://localhost:8000/v1"\nmodle = "m"\n', "unknown support_model key 'modle' (did you mean 'model'?)", 7),
        ('on_save = "yes"\n', "support_model.on_save must be true or false, not 'yes'", 6),
        ("model = 3\n", "support_model.model must be a string, not 3", 6),
    ],
)  # fmt: skip
def test_a_wrong_table_is_a_positioned_settings_error(
    tmp_path: Path, table: str, message: str, line: int
) -> None:
    path = _project(tmp_path, table)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert message in str(err.value) and err.value.line == line


def test_a_wrong_editor_value_is_left_out_with_a_message(tmp_path: Path) -> None:
    session = Workspace([tmp_path])
    session.set_editor_settings({"support_model": {"endpoint": "http://localhost:1/v1", "on_save": 1}})
    assert session.settings_for(tmp_path / "run.jsonl").support_model == {}
    assert any("support_model.on_save must be true or false" in m for m in session.messages)
    session.set_editor_settings({"support_model": {"endpoint": "http://localhost:1/v1", "model": "m"}})
    assert session.settings_for(tmp_path / "run.jsonl").support_model["model"] == "m"
