"""Shared fixtures of the release tests: the distributions built once per session, and a
fresh virtual environment with the built wheel installed (not the source tree)."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sdist and wheel of this checkout, built by `python -m build` as a release is."""
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv holding only the built wheel and its dependencies; its bin folder."""
    env_dir = tmp_path_factory.mktemp("wheel-venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    (wheel,) = dist.glob("*.whl")
    proc = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return bin_dir
