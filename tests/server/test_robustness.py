"""Bad input and rough clients leave the server alive and correct, and never cause popups."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from tests.helpers.lsp_session import as_tuples, diagnostics, expected_diagnostics, open_document


def _change(client, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_not_json_and_binary_text_are_findings(vscode, workspace):
    for name, text in [
        ("prose.jsonl", 'this is not json\n{"a": \n'),
        ("binary.jsonl", "\x00\x01\x02PK\x03\x04\ufffd\n"),
    ]:
        path = workspace / name
        path.write_text(text, encoding="utf-8")
        uri = open_document(vscode, path, text)
        got = await diagnostics(vscode, vscode.profile, uri, 1)
        assert got and as_tuples(got) == expected_diagnostics(path, text, "utf-16")
    assert not vscode.messages


async def test_a_flood_of_changes_ends_on_the_last_version(vscode, workspace):
    path = workspace / "flood.jsonl"
    text = '{"metadata": {}, "answer": []}\n'
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    for version in range(2, 200):
        text = text.replace("}\n", "} \n") if version % 2 else text.replace("} \n", "}\n")
        _change(vscode, uri, version, text)
    _change(vscode, uri, 200, "not json\n")
    got = await diagnostics(vscode, vscode.profile, uri, 200)
    path.write_text("not json\n", encoding="utf-8")
    assert as_tuples(got) == expected_diagnostics(path, "not json\n", "utf-16")


async def test_closing_while_a_check_is_pending_leaves_nothing_behind(vscode, workspace):
    path = workspace / "closed.jsonl"
    uri = open_document(vscode, path, "not json\n")
    vscode.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    other = workspace / "other.jsonl"
    ouri = open_document(vscode, other, "still not json\n")
    await diagnostics(vscode, vscode.profile, ouri, 1)  # the server went on
    assert list(vscode.diagnostics.get(uri, [])) == []
    hover = await vscode.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(0, 0))
    )
    assert hover is None and not vscode.messages


async def test_requests_about_positions_past_the_end_are_answered(vscode, workspace):
    path = workspace / "short.jsonl"
    uri = open_document(vscode, path, '{"answer": 1}\n')
    await diagnostics(vscode, vscode.profile, uri, 1)
    far = types.Position(99, 999)
    assert (
        await vscode.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri=uri), far))
        is None
    )
    actions = await vscode.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(far, far),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert actions is not None and all(a.title for a in actions)
    assert not vscode.messages


async def test_cancelled_requests_leave_the_server_answering(vscode, workspace):
    """A client that cancels its requests (as editors do while the cursor moves): every
    one is answered or cancelled, none is lost, and the next requests are answered right."""
    source = Path(__file__).parents[1] / "data" / "runs" / "kiddie_run1.jsonl"
    text = source.read_text(encoding="utf-8")
    path = workspace / "kiddie.jsonl"
    path.write_text(text, encoding="utf-8")
    uri = open_document(vscode, path, text)
    document = types.TextDocumentIdentifier(uri=uri)
    futures = []
    for n in range(60):
        position = types.Position(n % 5, 20 + n)
        msg_id = f"cancel-me-{n}"
        futures.append(
            vscode.protocol.send_request(
                types.TEXT_DOCUMENT_HOVER, types.HoverParams(document, position), msg_id=msg_id
            )
        )
        vscode.cancel_request(types.CancelParams(id=msg_id))
    for future in futures:  # each ends: an answer or the cancellation error, never a hang
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), 60)
        except Exception as exc:
            assert "cancel" in str(exc).lower() or isinstance(exc, asyncio.CancelledError), exc
    got = await diagnostics(vscode, vscode.profile, uri, 1)
    assert as_tuples(got) == expected_diagnostics(path, text, "utf-16")
    hover = await vscode.text_document_hover_async(types.HoverParams(document, types.Position(0, 2)))
    assert hover is not None and not vscode.messages
