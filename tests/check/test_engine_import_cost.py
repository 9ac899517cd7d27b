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
