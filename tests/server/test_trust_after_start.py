"""`citelens trust` given while the language server runs takes effect there: the project
file's document service, left out until then, is contacted on the re-check that follows,
with no edit, save or restart."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from citelens.config.trust import trust
from tests.helpers.http_service import running_service
from tests.helpers.lsp_session import TIMEOUT, open_document, start, wait_until

RUN = '{"metadata": {"run_id": "r", "topic_id": "1"}, "responses": [{"text": "a.", "citations": ["d1"]}]}\n'


async def test_a_trust_given_after_start_applies_without_a_restart(fresh, bare):
    with running_service() as service:
        project = bare / "citelens.toml"
        project.write_text(f'spec = "rag25"\ncorpora = ["{service.url};cache=off"]\n', encoding="utf-8")
        await start(fresh, "vscode-utf16-push", bare)
        (bare / "a.jsonl").write_text(RUN, encoding="utf-8")
        uri = open_document(fresh, bare / "a.jsonl", RUN)
        await wait_until(fresh, lambda: uri in fresh.diagnostics, "the first findings")
        await wait_until(
            fresh,
            lambda: any("citelens trust" in m.message for m in fresh.messages),
            "the notice",
            types.WINDOW_SHOW_MESSAGE,
        )
        await asyncio.sleep(1.5)  # the server had time to look at the (unchanged) trust record
        assert service.seen == []

        trust(project)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while not service.seen and loop.time() < deadline:
            await asyncio.sleep(0.1)
        assert [s["path"] for s in service.seen] == ["/v1/idx/doc/d1"]
