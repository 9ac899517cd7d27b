"""The kiddie runs (copies in tests/support/data; see its README.md) and a variant of run 1."""

from __future__ import annotations

import json
from pathlib import Path

KIDDIE = Path(__file__).resolve().parents[1] / "support" / "data"


def run_without_embedded_documents(tmp_path: Path) -> tuple[Path, Path]:
    """Kiddie run 1 with its documents moved out of the reports into a JSON-lines file."""
    reports = [json.loads(line) for line in (KIDDIE / "run1.jsonl").read_text().splitlines()]
    docs = {}
    for report in reports:
        for doc_id, doc in report.pop("documents").items():
            docs[doc_id] = doc["text"]
    run = tmp_path / "bare.jsonl"
    run.write_text("".join(json.dumps(r) + "\n" for r in reports))
    documents = tmp_path / "docs.jsonl"
    documents.write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in docs.items()))
    return run, documents
