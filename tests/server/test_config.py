"""Settings from every source reach the checks, with the project file winning; a change of
any source re-checks; a wrong setting is a positioned message, never a crash."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from tests.helpers.lsp_session import (
    as_tuples,
    diagnostics,
    expected_diagnostics,
    open_document,
    start,
    wait_until,
)
from tests.helpers.report_factory.runs import generate_run


def _run(folder, spec="rag24", name="run.jsonl"):
    lines, _ = generate_run(spec, 12, seed=21)
    text = "\n".join(lines) + "\n"
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path, text


async def test_initialization_options_choose_the_spec(fresh, bare):
    profile = await start(fresh, "vscode-utf16-push", bare, {"spec": "rag24"})
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    got = await diagnostics(fresh, profile, uri, 1)
    assert as_tuples(got) == expected_diagnostics(path, text, "utf-16", "--spec", "rag24")
    assert as_tuples(got) != expected_diagnostics(path, text, "utf-16")  # without a spec: structure only


async def test_workspace_configuration_then_did_change_configuration(fresh, bare):
    fresh.set_configuration({"spec": "rag24"}, section="citelens")
    profile = await start(fresh, "vscode-utf16-push", bare)
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    want = expected_diagnostics(path, text, "utf-16", "--spec", "rag24")
    await wait_until(fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "rag24 findings")

    fresh.set_configuration({"spec": "rag25"}, section="citelens")
    fresh.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    want = expected_diagnostics(path, text, "utf-16", "--spec", "rag25")
    await wait_until(fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "rag25 findings")
    assert profile.encoding == "utf-16"


async def test_the_project_file_wins_and_its_changes_recheck(fresh, bare):
    (bare / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    await start(fresh, "vscode-utf16-push", bare, {"spec": "rag24"})
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    want = expected_diagnostics(path, text, "utf-16")  # the CLI reads the same project file
    assert want == expected_diagnostics(path, text, "utf-16", "--spec", "rag25")
    await wait_until(fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "rag25 findings")

    (bare / "citelens.toml").write_text('spec = "rag24"\nstrict = true\n', encoding="utf-8")
    fresh.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=(bare / "citelens.toml").as_uri(), type=types.FileChangeType.Changed)
            ]
        )
    )
    want = expected_diagnostics(path, text, "utf-16")
    await wait_until(
        fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "rag24 strict findings"
    )
    assert all(d.severity == types.DiagnosticSeverity.Error for d in fresh.diagnostics[uri])


async def test_a_wrong_spec_is_a_diagnostic_at_its_key_not_a_crash(fresh, bare):
    toml = bare / "citelens.toml"
    toml.write_text('# settings\nspec = "rag2S"\n', encoding="utf-8")
    await start(fresh, "vscode-utf16-push", bare)
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    await wait_until(
        fresh, lambda: toml.as_uri() in fresh.diagnostics and uri in fresh.diagnostics, "settings diagnostics"
    )
    (on_toml,) = fresh.diagnostics[toml.as_uri()]
    assert on_toml.range.start.line == 1 and "rag2S" in on_toml.message
    (on_run,) = fresh.diagnostics[uri]
    assert "rag2S" in on_run.message and on_run.range.start == types.Position(0, 0)
    assert not fresh.messages, "no popups"
    assert any("rag2S" in m.message for m in fresh.log_messages)

    # another settings change that leaves the file wrong: its diagnostic stays, with no flicker
    seen = len(fresh.published_counts)
    fresh.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(
        fresh, lambda: (uri, 1) in fresh.published_counts[seen:], "the re-check after the change"
    )
    assert (toml.as_uri(), 0) not in fresh.published_counts
    assert len(fresh.diagnostics[toml.as_uri()]) == 1

    toml.write_text('spec = "rag24"\n', encoding="utf-8")  # repaired: real findings come back
    fresh.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(toml.as_uri())))
    want = expected_diagnostics(path, text, "utf-16")
    await wait_until(
        fresh, lambda: as_tuples(fresh.diagnostics.get(uri, [])) == want, "findings after the repair"
    )
    assert list(fresh.diagnostics[toml.as_uri()]) == []


async def test_a_client_that_never_answers_configuration(fresh, bare):
    never = asyncio.Event()

    async def configuration(params):
        await never.wait()

    fresh.protocol.fm.features[types.WORKSPACE_CONFIGURATION] = configuration

    profile = await start(fresh, "vscode-utf16-push", bare, {"spec": "rag24"})
    path, text = _run(bare)
    uri = open_document(fresh, path, text)
    got = await diagnostics(fresh, profile, uri, 1)
    assert as_tuples(got) == expected_diagnostics(path, text, "utf-16", "--spec", "rag24")
    never.set()


def test_a_settings_answer_with_nothing_new_checks_nothing_again(tmp_path):
    """An editor answers `workspace/configuration` right after start, most often with no
    values: the open run keeps its check (before, every start checked every open run twice
    and a pulling client's result ids went stale at once)."""
    import time

    from tests.helpers.raw_client import RawClient

    path, text = _run(tmp_path, "rag24")
    (tmp_path / "citelens.toml").write_text('spec = "rag24"\n', encoding="utf-8")
    client = RawClient(cwd=tmp_path)
    client.answers["workspace/configuration"] = [None, {}]  # the global scope, the folder
    try:
        client.initialize(tmp_path, {"workspace": {"configuration": True}})
        uri = client.open(path, text)
        client.diagnostics(uri, 1)
        deadline = time.monotonic() + 10
        while not any(r["method"] == "workspace/configuration" for r in client.server_requests):
            assert time.monotonic() < deadline, "no workspace/configuration request"
            client.request(
                "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
            )
        client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
        )
        time.sleep(1.0)  # a re-check of 12 reports would be out by now
        client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
        )
        again = [
            m
            for m in client.received
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        ]
        assert again == []
    finally:
        client.close()
