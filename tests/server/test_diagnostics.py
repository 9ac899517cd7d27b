"""Diagnostics equal `citelens check` findings, in every client profile's encoding."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from citelens.specs import builtin_specs
from tests.helpers.lsp_session import as_tuples, diagnostics, expected_diagnostics, open_document, wait_until
from tests.helpers.report_factory.runs import generate_run

DATA = Path(__file__).resolve().parents[1] / "data" / "runs"
SAMPLES = {
    "ragnarok_rag24_examples.jsonl": "rag24",
    "ragnarok_rag25_ag_baseline.example.jsonl": "rag25",
    "T1_run_1.head3.jsonl": "ragtime26",
    "organizer-gpt-oss-t2.jsonl": "dragun25",
    "kiddie_run1.jsonl": "kiddie",
}


def _place(workspace: Path, name: str, spec: str, text: str) -> Path:
    folder = workspace / spec
    folder.mkdir(exist_ok=True)
    (folder / "citelens.toml").write_text(f'spec = "{spec}"\n', encoding="utf-8")
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def _runs(workspace: Path) -> list[tuple[Path, str]]:
    runs = []
    for name, spec in SAMPLES.items():
        text = (DATA / name).read_text(encoding="utf-8")
        runs.append((_place(workspace, name, spec, text), text))
    for n, spec in enumerate(sorted(builtin_specs())):
        lines, _ = generate_run(spec, 25, seed=100 + n)
        text = "\n".join(lines) + "\n"
        runs.append((_place(workspace, f"generated-{spec}.jsonl", spec, text), text))
    return runs


async def test_diagnostics_equal_the_cli_findings(client, workspace):
    profile = client.profile
    for path, text in _runs(workspace):
        uri = open_document(client, path, text)
        got = await diagnostics(client, profile, uri, 1)
        assert as_tuples(got) == expected_diagnostics(path, text, profile.encoding), path.name
        if path.name.startswith("generated"):
            assert got, f"{path.name}: the run was meant to have findings"
        if not got:
            continue
        first = got[0]
        assert first.source == "citelens"
        assert first.code_description is not None and first.code_description.href.endswith(f"#{first.code}")
        assert first.data["code"] == first.code


async def test_closing_clears_and_pull_results_are_stable(client, workspace):
    profile = client.profile
    text = (DATA / "ragnarok_rag24_examples.jsonl").read_text(encoding="utf-8") + "not json\n"
    path = _place(workspace, "run.jsonl", "rag24", text)
    uri = open_document(client, path, text)
    got = await diagnostics(client, profile, uri, 1)
    assert any(d.code == "json_syntax" for d in got)
    if profile.pull:
        first = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        again = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=first.result_id
            )
        )
        assert again.kind == "unchanged"
        assert client.diagnostics == {}  # nothing pushed to a pulling client
    else:
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri))
        )
        await wait_until(client, lambda: list(client.diagnostics[uri]) == [], "the diagnostics to be cleared")


@pytest.mark.parametrize("name", ["notes.txt", "package.json.bak"])
async def test_other_files_are_left_alone(vscode, workspace, name):
    path = workspace / name
    uri = open_document(vscode, path, "{not a run")
    hover = await vscode.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(0, 1))
    )
    assert hover is None
    assert uri not in vscode.diagnostics
