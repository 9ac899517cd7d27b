"""Checks run in worker threads: a 50 MB run being checked holds up neither a hover nor
another file's diagnostics, and a flood of edits still ends on the final text's findings.
Ordering is asserted, never timings, and it is not left to a race: the big file's check
waits on a document service the test holds until the small file has been answered."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from citelens.config.trust import trust
from citelens_server.lsp.markdown import escape
from tests.helpers.lsp_session import (
    SERVER_COMMAND,
    as_tuples,
    diagnostics,
    expected_diagnostics,
    open_document,
    start,
)
from tests.helpers.report_factory import generate_run

BIG_BYTES = 50_000_000


def _big_run() -> str:
    """A rag25 run of about 50 MB (a generated run repeated: every repeat is a duplicate topic)."""
    lines, _ = generate_run("rag25", 2000, 7, fault_free=True)
    block = "\n".join(lines) + "\n"
    return block * (BIG_BYTES // len(block) + 1)


class _HeldService(BaseHTTPRequestHandler):
    """A document service that answers nothing until `release` is set, then every id."""

    release = threading.Event()
    asked: list[str] = []  # noqa: RUF012 (one list per fixture's subclass)

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.release.wait(300)
        doc_id = urllib.parse.unquote(self.path.rsplit("/doc/", 1)[-1])
        body = json.dumps({"docid": doc_id, "doc": {"contents": f"the text of {doc_id}"}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def held_service(workspace: Path) -> Iterator[type[_HeldService]]:
    """The workspace's documents come from a service the test releases (`release.set()`):
    until then a check that looks a cited document up cannot end."""
    handler = type("Held", (_HeldService,), {"release": threading.Event(), "asked": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v1/held;timeout=300;retries=0;cache=off"
    (workspace / "citelens.toml").write_text(f'spec = "rag25"\ncorpora = ["{url}"]\n', encoding="utf-8")
    trust(workspace / "citelens.toml")  # a project file names a service only once trusted
    yield handler
    handler.release.set()
    httpd.shutdown()
    httpd.server_close()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def big_client(lsp_client: LanguageClient, workspace, held_service):
    """A push client whose server may take a while to exit (it holds a 50 MB run)."""
    lsp_client.profile = await start(lsp_client, "vscode-utf16-push", workspace)
    yield lsp_client
    await asyncio.wait_for(lsp_client.shutdown_session(), 120)


def _record_arrivals(client) -> list[str]:
    """The uris of publishDiagnostics in arrival order (hover answers are added by the test)."""
    arrivals: list[str] = []
    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(params: types.PublishDiagnosticsParams) -> None:
        arrivals.append(params.uri)
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    return arrivals


async def test_a_50_mb_run_does_not_hold_up_a_small_file(big_client, workspace, held_service):
    vscode = big_client
    arrivals = _record_arrivals(vscode)
    big_text = _big_run()
    assert len(big_text.encode()) >= BIG_BYTES
    big = workspace / "big.jsonl"
    big_uri = open_document(vscode, big, big_text)

    small = workspace / "small.jsonl"
    small_text = '{"metadata": {"run_id": "r"}, "answer": []}\n'
    small.write_text(small_text, encoding="utf-8")
    small_uri = open_document(vscode, small, small_text)
    got = await diagnostics(vscode, vscode.profile, small_uri, 1)
    assert as_tuples(got) == expected_diagnostics(small, small_text, "utf-16")
    hover = await vscode.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=small_uri), got[0].range.start)
    )
    assert hover is not None and got[0].code in hover.contents.value
    arrivals.append("hover")
    # the big file's check is still waiting for its documents: its findings come later
    assert big_uri not in arrivals

    # a citation of the big file's first report (hovered while that file is being checked)
    first_line = big_text[: big_text.index("\n")]
    doc_id = next(c for s in json.loads(first_line)["answer"] for c in s.get("citations") or ())
    column = first_line.index(json.dumps(doc_id), first_line.index('"answer"')) + 2
    big_hover = asyncio.ensure_future(
        vscode.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri=big_uri), types.Position(0, column))
        )
    )
    held_service.release.set()  # the documents arrive: the big file's check can end
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 300
    while big_uri not in arrivals:
        assert loop.time() < deadline, "no diagnostics for the 50 MB file"
        await asyncio.sleep(0.2)
    assert arrivals.index(small_uri) < arrivals.index("hover") < arrivals.index(big_uri)
    big_diags = vscode.diagnostics[big_uri]
    assert any(d.code == "duplicate_topics" for d in big_diags)
    assert held_service.asked  # the big file's check did wait on the held service
    # a hover on the big file waited for its check, then was answered
    answered = await asyncio.wait_for(big_hover, 60)
    assert answered is not None and escape(doc_id) in answered.contents.value


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    start = rng.randrange(len(text))
    end = min(len(text), start + rng.choice([0, 0, 1, 2, 5]))
    new = rng.choice(["", "x", '"', "1", "}", "\n", ",", " "])
    return start, end, new


async def test_a_flood_of_incremental_edits_ends_on_a_fresh_check(vscode, workspace):
    from citelens.source.line_index import LineIndex

    lines, _ = generate_run("rag25", 40, 3)
    text = "\n".join(lines) + "\n"
    path = workspace / "flood.jsonl"
    uri = open_document(vscode, path, text)
    await diagnostics(vscode, vscode.profile, uri, 1)
    seen: list[int | None] = []
    features = vscode.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            seen.append(params.version)
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    rng = random.Random(11)
    version = 1
    for _ in range(300):
        start, end, new = _random_edit(rng, text)
        index = LineIndex(text)
        (l1, c1), (l2, c2) = index.position(start, "utf-16"), index.position(end, "utf-16")
        version += 1
        vscode.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(l1, c1), types.Position(l2, c2)), text=new
                    )
                ],
            )
        )
        text = text[:start] + new + text[end:]
        if version % 50 == 0:
            await asyncio.sleep(0)  # some checks run in between
    got = await diagnostics(vscode, vscode.profile, uri, version)
    path.write_text(text, encoding="utf-8")
    assert as_tuples(got) == expected_diagnostics(path, text, "utf-16")
    assert seen and seen[-1] == version
    assert seen == sorted(seen), "an older version was published after a newer one"
    json.dumps(seen)  # plain versions
