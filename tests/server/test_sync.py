"""Incremental sync keeps positions right through random edits of text holding emoji,
CJK, CRLF, lone CR and raw U+2028 (a JSON-legal character that is not an LSP line break)."""

from __future__ import annotations

import json
import random

import pytest
from lsprotocol import types

from tests.helpers.lsp_session import (
    ONE_PER_ENCODING,
    ClientText,
    as_tuples,
    diagnostics,
    expected_diagnostics,
    open_document,
)

PIECES = ["😀", "𝄞", "漢字", "\r\n", "\r", "\n", "\u2028", "x", '"', ",", "", "é", "{"]


def _text() -> str:
    reports = []
    for i in range(6):
        reports.append(
            json.dumps(
                {
                    "metadata": {
                        "team_id": "t",
                        "run_id": "r",
                        "narrative_id": str(i),
                        "narrative": "n 漢字",
                    },
                    "references": ["msmarco_v2.1_doc_00_1#1_2", "bad id 😀"],
                    "answer": [
                        {"text": f"Sentence 😀 with\u2028a raw separator 漢字 {i}.", "citations": [0, 1, 5]},
                        {"text": "Second 𝄞 sentence.", "citations": [1]},
                    ],
                },
                ensure_ascii=False,
            )
        )
    return reports[0] + "\r\n" + reports[1] + "\r" + "\n".join(reports[2:]) + "\n"


@pytest.mark.parametrize("client", ONE_PER_ENCODING, indirect=True)
async def test_random_incremental_edits_keep_positions(client, workspace):
    profile = client.profile
    rng = random.Random(f"sync-{profile.name}")
    text = _text()
    path = workspace / "edits.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    uri = open_document(client, path, text)
    model = ClientText(text, profile.encoding)
    version = 1
    await diagnostics(client, profile, uri, version)
    for _round in range(12):
        changes = []
        for _ in range(rng.randint(1, 4)):  # several changes in one notification apply in order
            start = rng.randint(0, len(model.text))
            end = min(len(model.text), start + rng.choice([0, 0, 1, 2, 5]))
            new = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 2)))
            rng_ = types.Range(model.position(start), model.position(end))
            changes.append(types.TextDocumentContentChangePartial(range=rng_, text=new))
            model.text = model.text[:start] + new + model.text[end:]
        version += 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes,
            )
        )
        got = await diagnostics(client, profile, uri, version)
        path.write_text(model.text, encoding="utf-8", newline="")
        assert as_tuples(got) == expected_diagnostics(path, model.text, profile.encoding), f"round {_round}"
