"""Code action "Set track spec…": with no spec configured, one quick fix per built-in
spec (those the file passes first); always as source actions; the edit writes the
choice into the project file, which then governs the checks."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from citelens.session.spec_ranking import rank_specs
from citelens.specs import builtin_specs
from tests.helpers.lsp_session import (
    TIMEOUT,
    ClientText,
    as_tuples,
    diagnostics,
    edits_of,
    expected_diagnostics,
    open_document,
    start,
    wait_until,
)
from tests.helpers.report_factory import generate_run


def _run(folder):
    lines, _ = generate_run("ragtime25", 10, 3, fault_free=True)
    text = "\n".join(lines) + "\n"
    path = folder / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text


async def _actions(client, uri: str, only=None) -> list[types.CodeAction]:
    at = types.Position(0, 0)
    return await asyncio.wait_for(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(at, at),
                context=types.CodeActionContext(
                    diagnostics=[], only=only, trigger_kind=types.CodeActionTriggerKind.Automatic
                ),
            )
        ),
        TIMEOUT,
    )


def _spec_actions(actions) -> list[types.CodeAction]:
    return [a for a in actions if a.title.startswith("Set track spec")]


async def test_no_spec_offers_every_spec_best_first_and_writes_the_choice(fresh, bare):
    profile = await start(fresh, "vscode-utf16-push", bare)
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, profile, uri, 1)
    offered = _spec_actions(await _actions(fresh, uri))
    ranked = rank_specs(text)
    assert [a.title.split(": ", 1)[1].split(" (")[0] for a in offered] == [f.spec for f in ranked]
    assert {a.kind for a in offered} == {"quickfix.setSpec.citelens"}
    assert "ragtime25 (no errors)" in offered[[f.spec for f in ranked].index("ragtime25")].title
    first_with_errors = next(i for i, f in enumerate(ranked) if f.errors)
    assert all("(no errors)" in a.title for a in offered[:first_with_errors])

    choice = next(a for a in offered if "ragtime25 (" in a.title)
    toml = bare / "citelens.toml"
    assert not toml.exists()
    created = [c for c in choice.edit.document_changes if isinstance(c, types.CreateFile)]
    assert [c.uri for c in created] == [toml.as_uri()]
    written = ClientText("", "utf-16")
    written.apply(edits_of(choice.edit, toml.as_uri()))
    toml.write_text(written.text, encoding="utf-8")  # the editor applies and saves the edit
    assert written.text == 'spec = "ragtime25"\n'
    fresh.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(toml.as_uri())))
    want = expected_diagnostics(path, text, "utf-16")  # the CLI reads the new project file
    assert want == expected_diagnostics(path, text, "utf-16", "--spec", "ragtime25")
    await wait_until(fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "ragtime25 findings")
    # a spec is configured now: no quick fixes, the source actions stay
    assert _spec_actions(await _actions(fresh, uri)) == []
    source = _spec_actions(await _actions(fresh, uri, only=[types.CodeActionKind.Source]))
    assert source and {a.kind for a in source} == {"source.setSpec.citelens"}
    assert len(source) == len(builtin_specs()) - 1 and not any("ragtime25 (" in a.title for a in source)


async def test_the_source_action_updates_the_existing_key(vscode, workspace):
    toml = workspace / "citelens.toml"
    toml.write_text(
        '# our project\nstrict = false\nspec = "rag25"\n\n[severity]\nlength = "warning"\n', "utf-8"
    )
    path, text = _run(workspace)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    source = _spec_actions(await _actions(vscode, uri, only=["source"]))
    choice = next(a for a in source if a.title.startswith("Set track spec: ragtime25 ("))
    written = ClientText(toml.read_text("utf-8"), "utf-16")
    written.apply(edits_of(choice.edit, toml.as_uri()))
    assert (
        written.text
        == '# our project\nstrict = false\nspec = "ragtime25"\n\n[severity]\nlength = "warning"\n'
    )
