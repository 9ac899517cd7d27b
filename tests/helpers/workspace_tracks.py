"""The multi-track workspace of issue 18, as a participant's repository holds it: rag25/
and ragtime/ runs with their own topics, a corpus sample, a nuggets file, an excluded
scratch/ folder and a git-ignored output/ folder; settings in pyproject's [tool.citelens]
with an [[overrides]] table for ragtime/."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURE = Path(__file__).parents[1] / "fixtures" / "workspace_tracks"
#: the files that are runs, relative to the workspace
RUNS = ("rag25/baseline.jsonl", "ragtime/T1_run_1.jsonl")


def copy_workspace(tmp_path: Path) -> Path:
    """A copy of the workspace under `tmp_path`, with the git-ignored files that cannot be
    committed with the fixture (a .gitignore there would hide them from this repository)."""
    root = tmp_path / "workspace"
    shutil.copytree(FIXTURE, root)
    (root / ".gitignore").write_text("# build output\noutput/\n*.tmp.jsonl\n", encoding="utf-8")
    (root / "output").mkdir()
    shutil.copy(root / "rag25" / "baseline.jsonl", root / "output" / "converted.jsonl")
    shutil.copy(root / "rag25" / "baseline.jsonl", root / "rag25" / "retry.tmp.jsonl")
    return root
