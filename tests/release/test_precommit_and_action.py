"""CiteLens where teams already check their work: pre-commit itself running our hooks on
a temporary repository, and the GitHub Action's check step run as the action runs it,
its SARIF validated against the SARIF 2.1.0 schema."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

EXAMPLES = ROOT / "examples"
SARIF_SCHEMA = ROOT / "tests" / "data" / "schemas" / "sarif-2.1.0-rtm.5.json"


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=env
    ).stdout.strip()


def _this_checkout_as_a_commit() -> str:
    """A commit of this checkout as it is now (HEAD when clean), without touching the
    working tree, so that pre-commit clones exactly what is being tested."""
    return _git(ROOT, "stash", "create") or _git(ROOT, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def team_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A team's repository: a citelens.toml, two runs, and our hooks in its pre-commit config."""
    repo = tmp_path_factory.mktemp("team-repo")
    _git(repo, "init", "-q")
    (repo / "citelens.toml").write_text('spec = "rag26"\n', encoding="utf-8")
    (repo / "runs").mkdir()
    shutil.copy(EXAMPLES / "rag26-with-mistakes.jsonl", repo / "runs" / "faulty.jsonl")
    config = {
        "repos": [
            {"repo": str(ROOT), "rev": _this_checkout_as_a_commit(), "hooks": [{"id": "citelens-check"}]}
        ]
    }
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git(repo, "add", "-A")
    return repo


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's own cache, as a user's: the first hook run installs our hooks'
    environment (from the clone of this checkout), the next runs of the same repository
    and revision reuse it."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _pre_commit(repo: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=repo, capture_output=True, text=True, env=env
    )


def test_pre_commit_runs_the_check_hook_with_the_teams_settings(team_repo, pre_commit_home):
    proc = _pre_commit(team_repo, "run", "--all-files", home=pre_commit_home)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "runs/faulty.jsonl:2:664: error[run_id_length]" in proc.stdout  # rag26's rule, from citelens.toml


def test_the_fix_hook_repairs_what_it_can_and_reports_the_rest(team_repo, pre_commit_home):
    config = yaml.safe_load((team_repo / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    config["repos"][0]["hooks"] = [{"id": "citelens-fix"}]
    (team_repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    before = (team_repo / "runs" / "faulty.jsonl").read_text(encoding="utf-8")
    proc = _pre_commit(team_repo, "run", "--all-files", home=pre_commit_home)
    after = (team_repo / "runs" / "faulty.jsonl").read_text(encoding="utf-8")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert after != before  # the safe fixes were applied
    assert "error[run_id_length]" in proc.stdout  # a run id cannot be fixed for the team


def test_the_hook_file_names_both_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {h["id"]: h["entry"] for h in hooks} == {
        "citelens-check": "citelens check",
        "citelens-fix": "citelens check --fix",
    }


def _action(tmp_path: Path, **inputs: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The action's check step, as action.yml runs it, with CiteLens on the PATH."""
    output = tmp_path / "github_output"
    env = {
        **os.environ,
        "GITHUB_OUTPUT": str(output),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        **{f"CITELENS_{k.upper()}": v for k, v in inputs.items()},
    }
    proc = subprocess.run(
        ["bash", str(ROOT / "action" / "check.sh")], capture_output=True, text=True, env=env, cwd=ROOT
    )
    return proc, output


def test_the_action_step_is_what_action_yml_runs():
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    runs = [step.get("run", "") for step in action["runs"]["steps"]]
    assert 'bash "$GITHUB_ACTION_PATH/action/check.sh"' in runs
    assert set(action["inputs"]) == {"paths", "spec", "topics", "docs", "strict", "sarif", "python-version"}


def test_the_action_annotates_findings_and_writes_valid_sarif(tmp_path):
    sarif = tmp_path / "out" / "citelens.sarif"
    proc, output = _action(
        tmp_path,
        paths=str(EXAMPLES / "rag26-with-mistakes.jsonl"),
        spec="rag26",
        topics=str(EXAMPLES / "rag26-topics.tsv"),
        sarif=str(sarif),
    )
    assert proc.returncode == 1
    annotations = [line for line in proc.stdout.splitlines() if line.startswith(("::error", "::warning"))]
    assert len(annotations) == 8
    assert any("line=2,col=664" in a and "run_id_length" in a for a in annotations)
    assert output.read_text(encoding="utf-8").strip() == "exit-code=1"
    report = json.loads(sarif.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(report)
    results = report["runs"][0]["results"]
    assert len(results) == 8
    rules = report["runs"][0]["tool"]["driver"]["rules"]
    assert all(rule.get("helpUri") for rule in rules)


def test_the_action_passes_a_clean_run(tmp_path):
    proc, output = _action(
        tmp_path,
        paths=str(EXAMPLES / "dragun25-organizer-run.jsonl"),
        spec="dragun25",
        topics=str(EXAMPLES / "dragun25-topics.jsonl"),
        strict="true",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert output.read_text(encoding="utf-8").strip() == "exit-code=0"


def test_the_action_reports_a_missing_file_as_a_usage_error(tmp_path):
    proc, output = _action(tmp_path, paths=str(tmp_path / "nope.jsonl"), sarif=str(tmp_path / "x.sarif"))
    assert proc.returncode == 2
    assert output.read_text(encoding="utf-8").strip() == "exit-code=2"
    assert "::error::citelens could not check the runs" in proc.stdout
