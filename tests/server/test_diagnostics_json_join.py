"""`DiagnosticsJson.render` joins its fragments into one JSON array with a single copy:
none, one and many findings give the array of the diagnostics, each once, in order, and
rendering again (from the fragments it kept) gives the same text."""

from __future__ import annotations

import json

import pytest

from citelens.check.finding import Finding
from citelens.source.line_index import LineIndex


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_the_rendered_array_holds_every_diagnostic_once_in_order(n: int) -> None:
    from citelens_server.lsp.diagnostics import DiagnosticsJson

    text = "".join(f'{{"line": {i}}}\n' for i in range(6))
    index = LineIndex(text)
    findings = [
        Finding("schema", "error", f"message {i}", start=index.starts[i], end=index.starts[i] + 1)
        for i in range(n)
    ]
    rendered = DiagnosticsJson()
    out = rendered.render(findings, index, "utf-16", "file:///run.jsonl")
    diags = json.loads(out)
    assert [d["message"] for d in diags] == [f"message {i}" for i in range(n)]
    assert [d["range"]["start"]["line"] for d in diags] == list(range(n))
    assert (
        rendered.render(findings, index, "utf-16", "file:///run.jsonl") == out
    )  # the kept fragments unchanged
