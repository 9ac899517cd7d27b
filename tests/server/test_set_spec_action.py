"""Code actions for the track spec: with no spec configured, one "Set track spec to X" for
the track the file looks like and one "Set track spec…" picker, never a list per spec, and
nothing once a spec is configured; the edit writes the spec for the file's folder into
the project file in place (pyproject's [tool.citelens] included)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from citelens.session.spec_ranking import rank_specs
from citelens.specs import builtin_specs
from citelens.specs.recognise import recognise_track
from tests.helpers.lsp_session import (
    TIMEOUT,
    ClientText,
    action_command,
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


async def test_no_spec_offers_the_guess_and_a_picker_and_writes_the_choice(fresh, bare):
    profile = await start(fresh, "vscode-utf16-push", bare)
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    await diagnostics(fresh, profile, uri, 1)
    guess = recognise_track(text)
    assert guess is not None and guess.confident and guess.spec.startswith("ragtime")
    offered = _spec_actions(await _actions(fresh, uri))
    assert [a.title for a in offered] == [f"Set track spec to {guess.spec}", "Set track spec…"]
    assert offered[0].kind == "quickfix.setSpec.citelens"
    assert action_command(offered[1]) == ("citelens.pickSpec", [uri])

    choice = offered[0]
    toml = bare / "citelens.toml"
    assert not toml.exists()
    created = [c for c in choice.edit.document_changes if isinstance(c, types.CreateFile)]
    assert [c.uri for c in created] == [toml.as_uri()]
    written = ClientText("", "utf-16")
    written.apply(edits_of(choice.edit, toml.as_uri()))
    toml.write_text(written.text, encoding="utf-8")  # the editor applies and saves the edit
    assert written.text == f'spec = "{guess.spec}"\n'
    fresh.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(toml.as_uri())))
    want = expected_diagnostics(path, text, "utf-16")  # the CLI reads the new project file
    assert want == expected_diagnostics(path, text, "utf-16", "--spec", guess.spec)
    await wait_until(
        fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "findings under the spec"
    )
    # a spec is configured now: no spec actions at all
    assert _spec_actions(await _actions(fresh, uri)) == []
    assert _spec_actions(await _actions(fresh, uri, only=[types.CodeActionKind.Source])) == []


async def test_the_edit_goes_into_pyproject_for_this_folder_only(vscode, workspace):
    (workspace / "citelens.toml").unlink()
    pyproject = workspace / "pyproject.toml"
    before = '[project]\nname = "runs"  # ours\n\n[tool.citelens]\nstrict = false\n\n[tool.ruff]\nline-length = 100\n'
    pyproject.write_text(before, "utf-8")
    (workspace / "ragtime").mkdir()
    path, text = _run(workspace / "ragtime")
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    [choice, _picker] = _spec_actions(await _actions(vscode, uri, only=["source"]))
    spec = choice.title.removeprefix("Set track spec to ")
    written = ClientText(pyproject.read_text("utf-8"), "utf-16")
    written.apply(edits_of(choice.edit, pyproject.as_uri()))
    assert (
        written.text == before + f'\n[[tool.citelens.overrides]]\nfiles = ["ragtime/**"]\nspec = "{spec}"\n'
    )
    assert not (workspace / "ragtime" / "citelens.toml").exists()


async def test_list_specs_ranks_the_guess_first_with_error_counts(vscode, workspace):
    (workspace / "citelens.toml").unlink()
    path, text = _run(workspace)
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    answer = await vscode.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citelens.listSpecs", arguments=[uri])
    )
    guess = recognise_track(text)
    assert answer["active"] is None and answer["guess"]["spec"] == guess.spec
    assert [s["id"] for s in answer["specs"]][0] == guess.spec
    assert {s["id"] for s in answer["specs"]} == set(builtin_specs())
    fits = {f.spec: f.errors for f in rank_specs(text)}
    assert {s["id"]: s["errors"] for s in answer["specs"]} == fits
