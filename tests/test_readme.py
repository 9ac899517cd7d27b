"""README.md is assembled from docs/readme/*.md; the two must not drift apart."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_is_built_from_its_sections():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "build_readme.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_readme_quickstart_commands_are_the_ci_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(line for line in ci.splitlines() if line.startswith("python3 -m venv"))
    assert test_command in readme
