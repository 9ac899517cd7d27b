"""With no documents anywhere, `check --support` judges nothing, and says so: no
groundedness 1.00 / hallucination 0.00 for reports in which nothing was judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli_capture import run

RAG25 = Path(__file__).parents[1] / "data" / "runs" / "ragnarok_rag25_ag_baseline.example.jsonl"


def test_text_says_not_judged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "check", "--support", "--spec", "rag25", "--support-cache", "none", RAG25)
    lines = [line for line in out.splitlines() if line.startswith("support: ")]
    assert len(lines) == 2, out  # the report and the run
    assert lines[0].endswith(
        "13 sentences, 12 unchecked, 1 uncited: not judged: no documents; pass --docs or set corpora"
    )
    assert lines[1].endswith("sentences: not judged: no documents; pass --docs or set corpora")
    assert "groundedness" not in out and "hallucination" not in out


def test_json_has_no_figures(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "check", "--support", "--spec", "rag25", "--support-cache", "none", "--format", "json", RAG25
    )
    [file_doc] = json.loads(out)["support"]
    [report] = file_doc["reports"]
    assert report["hallucination_metrics"] is None and report["shares"] is None
    assert report["not_judged"] == "not judged: no documents; pass --docs or set corpora"
    assert file_doc["run"]["shares"] is None and file_doc["run"]["not_judged"] == report["not_judged"]
