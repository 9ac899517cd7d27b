"""Importing the models must stay light: the editor loads them on start."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("nltk", "pandas", "click", "yaml", "numpy", "requests")


def test_importing_the_models_loads_no_heavy_library() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import citelens.models"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {
        line.split("|")[-1].strip().split(".")[0] for line in result.stderr.splitlines() if "|" in line
    }
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_conversion_helpers_used_by_the_models_do_not_load_the_converter() -> None:
    code = "import sys, citelens.models; print('citelens.models.conversion' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
