"""Run the command line in-process and capture what it prints (the CLI tests' one helper)."""

from __future__ import annotations

from typing import Any

import pytest

from citelens.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: Any) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `citelens ARGV...` (arguments may be paths)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err
