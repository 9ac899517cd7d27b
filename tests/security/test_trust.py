"""A project file names a service or a token only once the user trusts it: `citelens
check` (as the GitHub Action runs it) and the editor's session, against a real HTTP
server on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.session import Workspace
from tests.helpers.http_service import Service, running_service

SECRET = "victim-secret-value"


def _citelens(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VICTIM_SECRET": SECRET}
    return subprocess.run(
        [sys.executable, "-m", "citelens", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


def _project(tmp_path: Path, service: Service) -> Path:
    project = tmp_path / "cloned"
    project.mkdir()
    (project / "citelens.toml").write_text(
        f'spec = "rag25"\ncorpora = ["{service.url};token_env=VICTIM_SECRET;cache=off", "docs.jsonl"]\n',
        encoding="utf-8",
    )
    (project / "docs.jsonl").write_text(
        '{"docid": "local-1", "contents": "a local document"}\n', encoding="utf-8"
    )
    (project / "run.jsonl").write_text(Path(__file__).with_name("run.jsonl").read_text(encoding="utf-8"))
    return project


def test_an_untrusted_project_file_sends_nothing_and_says_once_how_to_trust_it(tmp_path: Path) -> None:
    with running_service() as service:
        project = _project(tmp_path, service)
        done = _citelens("check", "run.jsonl", cwd=project)
        assert service.seen == []  # not one request, so no token either
        notices = [line for line in done.stderr.splitlines() if "not trusted" in line]
        assert len(notices) == 1, done.stderr
        assert "contact a host" in notices[0] and "bearer token" in notices[0]
        assert f"citelens trust {project / 'citelens.toml'}" in notices[0]
        assert SECRET not in done.stdout + done.stderr
        assert "internal error" not in done.stderr
        # the rest of the file still applies: the spec and the local corpus
        assert "references_missing" in done.stdout

        trusted = _citelens("trust", str(project), cwd=tmp_path)
        assert trusted.returncode == 0, trusted.stderr
        assert "would send the value of an environment variable as a bearer token" in trusted.stdout
        _citelens("check", "run.jsonl", cwd=project)
        assert service.seen and set(service.authorizations()) == {f"Bearer {SECRET}"}

        # a changed file is untrusted again
        asked = len(service.seen)
        config = project / "citelens.toml"
        config.write_text(config.read_text() + "strict = true\n")
        again = _citelens("check", "run.jsonl", cwd=project)
        assert len(service.seen) == asked
        assert "not trusted since it changed" in again.stderr
        listed = _citelens("trust", "--list", cwd=tmp_path)
        assert f"{config}\tchanged since" in listed.stdout

        revoked = _citelens("trust", "--revoke", str(config), cwd=tmp_path)
        assert "no longer trusted" in revoked.stdout
        assert "no trusted project files" in _citelens("trust", "--list", cwd=tmp_path).stdout


def test_the_editor_session_leaves_the_values_out_and_keeps_the_rest(tmp_path: Path) -> None:
    with running_service() as service:
        project = _project(tmp_path, service)
        session = Workspace([project])
        settings = session.settings_for(project / "run.jsonl")
        assert settings.corpora == ("docs.jsonl",) and settings.spec == "rag25"
        assert len(session.notices) == 1 and "citelens trust" in session.notices[0]
        session.settings_for(project / "run.jsonl")
        assert len(session.notices) == 1  # said once
        doc = session.open(project / "run.jsonl", (project / "run.jsonl").read_text())
        assert doc.result.findings  # checked, with the local corpus only
        session.close_sources()
        assert service.seen == []


def test_the_users_own_settings_need_no_trust(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with running_service() as service:
        project = _project(tmp_path, service)
        (project / "citelens.toml").write_text('spec = "rag25"\n')
        # the command line
        _citelens(
            "check", "run.jsonl", "--docs", f"{service.url};token_env=VICTIM_SECRET;cache=off", cwd=project
        )
        assert service.seen and set(service.authorizations()) == {f"Bearer {SECRET}"}
        # the user config file in the user's config folder
        user_dir = Path(os.environ["CITELENS_CONFIG_DIR"])
        user_dir.mkdir(parents=True, exist_ok=True)
        (user_dir / "config.toml").write_text(
            f'corpora = ["{service.url};token_env=VICTIM_SECRET;cache=off"]\n'
        )
        asked = len(service.seen)
        done = _citelens("check", "run.jsonl", cwd=project)
        assert len(service.seen) > asked and "not trusted" not in done.stderr
        # editor settings (the client answers for them; VS Code only with workspace trust)
        session = Workspace([project])
        session.set_editor_settings({"corpora": [f"{service.url};token_env=VICTIM_SECRET"]})
        assert session.settings_for(project / "run.jsonl").corpora[0].startswith(service.url)


def test_trust_refuses_what_is_not_a_project_file(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    done = _citelens("trust", str(tmp_path / "notes.txt"), cwd=tmp_path)
    assert done.returncode == 2 and "is not a project file" in done.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _citelens("trust", str(empty), cwd=tmp_path)
    assert done.returncode == 2 and "no citelens.toml" in done.stderr


def test_a_trusted_project_files_bad_service_option_is_a_positioned_settings_error(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "citelens.toml").write_text(
        'spec = "rag25"\n\ncorpora = ["http://127.0.0.1:9/v1/x;retries=2000"]\n'
    )
    (project / "run.jsonl").write_text(Path(__file__).with_name("run.jsonl").read_text())
    assert _citelens("trust", str(project), cwd=tmp_path).returncode == 0
    done = _citelens("check", "run.jsonl", cwd=project)
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert (
        f"{project / 'citelens.toml'}:3: 'corpora': http://127.0.0.1:9/v1/x: option retries='2000' is out of range"
        in done.stderr
    )


def test_the_github_action_ignores_the_repositorys_service_and_takes_its_docs_input(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    with running_service() as service:
        project = _project(tmp_path, service)

        def action(**inputs: str) -> subprocess.CompletedProcess[str]:
            env = {
                **os.environ,
                "VICTIM_SECRET": SECRET,
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                "CITELENS_PATHS": "run.jsonl",
                **{f"CITELENS_{k.upper()}": v for k, v in inputs.items()},
            }
            return subprocess.run(
                ["bash", str(root / "action" / "check.sh")],
                capture_output=True,
                text=True,
                env=env,
                cwd=project,
                timeout=120,
            )

        pull_request = action()
        assert service.seen == [] and "citelens trust" in pull_request.stdout + pull_request.stderr
        action(docs=f"{service.url};token_env=VICTIM_SECRET;cache=off")
        assert service.seen and set(service.authorizations()) == {f"Bearer {SECRET}"}
