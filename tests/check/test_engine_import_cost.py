"""The validator starts fast: its import pulls no heavy library (the CLI and, later, the
language server's `initialize` depend on it)."""

import subprocess
import sys


def test_engine_imports_no_heavy_libraries():
    probe = (
        "import sys, citelens.check, citelens.specs, citelens.topics, citelens.config, citelens.fixes.apply, citelens.check.fix_context;"
        "print(sorted(m for m in ('numpy', 'pydantic', 'yaml', 'pygls', 'lsprotocol') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_whole_check_run_loads_no_heavy_library_without_support():
    """`citelens check` (the whole command, output included) stays off pydantic and numpy
    unless --support asks for the judge."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "rag26-with-mistakes.jsonl"
    probe = (
        "import sys; from citelens.cli import main; "
        f"main(['check', {str(example)!r}, '--spec', 'rag26']); "
        "print(sorted(m for m in ('numpy', 'pydantic', 'yaml', 'pygls', 'lsprotocol') if m in sys.modules), "
        "file=sys.stderr)"
    )
    err = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stderr
    assert err.strip().splitlines()[-1] == "[]", err
