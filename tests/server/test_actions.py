"""Code actions: quick fixes round-trip, fix-all and convert-file equal the CLI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from tests.helpers.lsp_session import (
    ClientText,
    as_tuples,
    diagnostics,
    edits_of,
    expected_diagnostics,
    open_document,
)
from tests.helpers.report_factory.runs import generate_run

FIXABLE_SPECS = ["rag25", "rag24", "ragtime26", "dragun25"]


def _run(workspace: Path, spec: str, seed: int = 3, n: int = 30) -> tuple[Path, str]:
    folder = workspace / spec
    folder.mkdir(exist_ok=True)
    (folder / "citelens.toml").write_text(f'spec = "{spec}"\n', encoding="utf-8")
    lines, _ = generate_run(spec, n, seed=seed)
    text = "\n".join(lines) + "\n"
    path = folder / "run.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    return path, text


async def _actions(client, uri, rng, diags, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=diags, only=only),
        )
    )


async def _resolved(client, action):
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None, action.title
    return action


def _replace_all(client, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


@pytest.mark.parametrize("spec", FIXABLE_SPECS)
async def test_every_quick_fix_round_trips(vscode, workspace, spec):
    profile = vscode.profile
    path, text = _run(workspace, spec)
    uri = open_document(vscode, path, text)
    version = 1
    diags = await diagnostics(vscode, profile, uri, version)
    tried = 0
    for diag in diags:
        actions = await _actions(vscode, uri, diag.range, [diag], only=[types.CodeActionKind.QuickFix])
        fixes = [a for a in actions or [] if a.diagnostics and a.diagnostics[0].data == diag.data]
        if not fixes:
            continue
        fix = await _resolved(vscode, fixes[0])
        model = ClientText(text, profile.encoding)
        model.apply(edits_of(fix.edit, uri))
        version += 1
        _replace_all(vscode, uri, model.text, version)
        after = await diagnostics(vscode, profile, uri, version)
        # the fixed finding is gone, and no finding of the same code appears elsewhere
        key = lambda d: (d.code, d.data["pointer"])  # noqa: E731
        assert sum(key(d) == key(diag) for d in after) < sum(key(d) == key(diag) for d in diags), fix.title
        assert {key(d) for d in after if d.code == diag.code} <= {key(d) for d in diags}, fix.title
        # and what the editor now shows is what `citelens check` says of the fixed text
        fixed = path.with_name("fixed.jsonl")
        fixed.write_text(model.text, encoding="utf-8", newline="")
        assert as_tuples(after) == expected_diagnostics(fixed, model.text, profile.encoding), fix.title
        version += 1
        _replace_all(vscode, uri, text, version)  # back to the faulty text for the next fix
        diags = await diagnostics(vscode, profile, uri, version)
        tried += 1
    assert tried >= 3, f"{spec}: too few quick fixes offered ({tried})"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "citelens", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("spec", FIXABLE_SPECS)
async def test_fix_all_equals_check_fix(vscode, workspace, spec):
    path, text = _run(workspace, spec, seed=9)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    actions = await _actions(
        vscode, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source.fixAll"]
    )
    (action,) = [a for a in actions if a.kind == "source.fixAll.citelens"]
    action = await _resolved(vscode, action)
    model = ClientText(text, vscode.profile.encoding)
    model.apply(edits_of(action.edit, uri))

    copy = workspace / spec / "cli-copy.jsonl"
    shutil.copyfile(path, copy)
    _cli("check", "--fix", str(copy))
    assert model.text == copy.read_text(encoding="utf-8")
    assert model.text != text


@pytest.mark.parametrize(
    ("spec", "target"), [("rag25", "ragtime26"), ("ragtime26", "rag24"), ("rag25", "rag24")]
)
async def test_convert_file_equals_citelens_convert(vscode, workspace, spec, target):
    lines, _ = generate_run(spec, 20, seed=4, fault_free=True)
    folder = workspace / spec
    folder.mkdir(exist_ok=True)
    (folder / "citelens.toml").write_text(f'spec = "{spec}"\n', encoding="utf-8")
    path = folder / "clean.jsonl"
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    actions = await _actions(
        vscode, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source"]
    )
    titles = [a.title for a in actions]
    matching = [a for a in actions if a.title.startswith(f"Convert file to {target} ")]
    assert len(matching) == 1, titles
    action = matching[0]
    action = await _resolved(vscode, action)
    model = ClientText(text, vscode.profile.encoding)
    model.apply(edits_of(action.edit, uri))

    out = _cli("convert", "--to", target, str(path))
    assert out.returncode == 0, out.stderr
    assert model.text == out.stdout
