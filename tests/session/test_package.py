"""The package's names resolve, and `citelens check` (which needs only the workspace)
does not pay for the document side at start-up."""

from __future__ import annotations

import ast
import subprocess
import sys

import citelens.session as session


def test_every_exported_name_resolves():
    assert sorted(session.__all__) == sorted(session._EXPORTS)
    for name in session.__all__:
        assert getattr(session, name).__name__ == name


def test_the_workspace_alone_does_not_load_the_document_side():
    code = (
        "import sys, citelens.session.workspace\n"
        "print(sorted(m for m in sys.modules if m.startswith('citelens.session')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert ast.literal_eval(out) == [
        "citelens.session",
        "citelens.session.document_uri",
        "citelens.session.layers",
        "citelens.session.workspace",
    ]
