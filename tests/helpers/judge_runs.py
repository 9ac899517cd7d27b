"""What the model-judge tests share (llm, nli, the editor's judge commands): a run whose
reports carry their documents, and `citelens check --support --judge ...` with its JSON
verdicts read back."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from citelens.cli import main

SENTENCE = "Worms live in the dirt and make tunnels."
DOCUMENT = "Earthworms are tube-shaped segmented worms that live in soil and create tunnels."
#: a sentence no document of these tests supports
UNRELATED = "Comets orbit distant stars slowly."


def report_with_documents(
    responses: Sequence[tuple[str, Sequence[str]]], documents: Mapping[str, str], topic: str = "worms"
) -> dict[str, Any]:
    """A kiddie report: (sentence, cited ids) per response, the documents embedded."""
    return {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": topic},
        "responses": [{"text": text, "citations": list(cited)} for text, cited in responses],
        "documents": {k: {"id": k, "text": v} for k, v in documents.items()},
    }


def write_run(
    folder: Path,
    responses: Sequence[tuple[str, Sequence[str]]],
    documents: Mapping[str, str],
    name: str = "run.jsonl",
) -> Path:
    """A one-report run file in `folder`."""
    path = folder / name
    path.write_text(json.dumps(report_with_documents(responses, documents)) + "\n", encoding="utf-8")
    return path


def check_support(
    capsys: Any, run: Path, judge: str, *options: str, output: str = "json"
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `citelens check RUN --spec kiddie --support --judge
    JUDGE --format OUTPUT --executor serial OPTIONS...`."""
    code = main(
        [
            "check",
            str(run),
            "--spec",
            "kiddie",
            "--support",
            "--judge",
            judge,
            "--format",
            output,
            "--executor",
            "serial",
            *options,
        ]
    )
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cited_verdicts(out: str) -> list[dict[str, Any]]:
    """Every citation's verdict in a JSON check output, in order."""
    data = json.loads(out)
    return [c for f in data["support"] for r in f["reports"] for s in r["sentences"] for c in s["citations"]]
