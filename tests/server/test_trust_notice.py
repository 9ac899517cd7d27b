"""The language server leaves a project file's service out until the user trusts it, and
says so once as a warning the user sees (window/showMessage) with the command to run."""

from __future__ import annotations

import socket

from lsprotocol import types

from tests.helpers.lsp_session import open_document, start, wait_until


async def test_an_untrusted_service_is_not_contacted_and_the_user_is_told_once(fresh, bare):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        (bare / "citelens.toml").write_text(
            f'spec = "rag25"\ncorpora = ["http://127.0.0.1:{port}/v1/x;token_env=HOME;cache=off"]\n',
            encoding="utf-8",
        )
        await start(fresh, "vscode-utf16-push", bare)
        text = '{"metadata": {"run_id": "r", "topic_id": "1"}, "responses": [{"text": "a.", "citations": ["d1"]}]}\n'
        for name in ("a.jsonl", "b.jsonl"):
            (bare / name).write_text(text, encoding="utf-8")
            uri = open_document(fresh, bare / name, text)
            await wait_until(fresh, lambda uri=uri: uri in fresh.diagnostics, f"findings of {name}")
        warnings = [
            m for m in fresh.messages if m.type == types.MessageType.Warning and "citelens trust" in m.message
        ]
        assert len(warnings) == 1 and str(bare / "citelens.toml") in warnings[0].message
        try:
            listener.accept()
            contacted = True
        except TimeoutError:
            contacted = False
        assert not contacted
    finally:
        listener.close()
