"""`check --support --explain`: per citation the passage whole with matched words marked,
what is not found, and which of several documents has which part; `show --at` opens the
document where the passage starts."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from citelens.cli import main
from citelens.support.explain import coverage_lines, marked

WORMS = "Bees fly. Earthworms are segmented worms that live in soil and create tunnels. They eat leaves."
BOOK = "How to Eat Fried Worms is a children's book about a boy who bets he can eat 15 worms."


def test_marked_puts_each_evidence_span_of_the_passage_between_marks() -> None:
    passage = {"start": 10, "end": 30, "text": "Earthworms live here"}
    evidence = [{"start": 10, "end": 20}, {"start": 21, "end": 25}, {"start": 90, "end": 95}]
    assert marked(passage, evidence) == "[Earthworms] [live] here"
    assert marked(passage, evidence, ("**", "**")) == "**Earthworms** **live** here"


def test_which_document_has_which_part() -> None:
    citations = [
        {"doc_id": "A", "verdict": "partial", "missing_terms": ["days", "Paris"]},
        {"doc_id": "B", "verdict": "partial", "missing_terms": ["worms", "Paris"]},
    ]
    assert coverage_lines(citations) == [
        "A alone has: worms",
        "B alone has: days",
        "no cited document has: Paris",
    ]
    assert coverage_lines(citations[:1]) == []


def _files(tmp_path: Path) -> tuple[Path, Path]:
    report = {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": "worms"},
        "responses": [
            {"text": "Worms live in the soil and eat 15 worms in 15 days.", "citations": ["W", "B"]}
        ],
    }
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(report) + "\n")
    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        json.dumps({"id": "W", "text": WORMS}) + "\n" + json.dumps({"id": "B", "text": BOOK}) + "\n"
    )
    return run, docs


def test_explain_shows_the_passage_the_missing_words_and_numbers_and_how_to_open_it(
    tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("CITELENS_CACHE_DIR", str(tmp_path / "cache"))
    run, docs = _files(tmp_path)
    argv = [
        "check",
        str(run),
        "--spec",
        "kiddie",
        "--support",
        "--docs",
        str(docs),
        "--explain",
        "--executor",
        "serial",
    ]
    main([*argv, "--support-cache", str(tmp_path / "v.sqlite")])
    out = capsys.readouterr().out
    lines = [line.removeprefix("explain: ") for line in out.splitlines() if line.startswith("explain: ")]
    assert lines[0].endswith("sentence 1: “Worms live in the soil and eat 15 worms in 15 days.”")
    text = "\n".join(lines)
    assert "W: partial (lexical" in text and "meaning not checked" in text
    # the passage runs on into the next sentence, where the evidence goes on
    assert (
        "passage (characters 10-95): “[Earthworms are segmented worms that live in soil] and create tunnels. "
        "They [eat] leaves.”" in text
    )
    assert "not found: 15, days\n    numbers not in the document: 15" in text
    assert "B: partial" in text and "not found: live, soil, days" in text
    assert "W alone has: live, soil\n  B alone has: 15\n  no cited document has: days" in text
    # the command it gives opens the document where the passage starts
    [command] = [line.split("open: ", 1)[1] for line in lines if "open: " in line and " W --at" in line]
    args = shlex.split(command)
    assert args[:2] == ["citelens", "show"]
    main(args[1:])
    shown = capsys.readouterr().out
    assert "[… from character 10 of" in shown and shown.rstrip().endswith(WORMS[10:])
    # the same explanation from the cache of finished files
    main([*argv, "--support-cache", str(tmp_path / "v.sqlite")])
    assert capsys.readouterr().out == out
