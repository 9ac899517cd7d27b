"""Which track a run looks like, from its content alone: each real sample run is recognised
as its own track, and a run that gives little away is not claimed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citelens.specs.recognise import recognise_track

RUNS = Path(__file__).parents[1] / "data" / "runs"


@pytest.mark.parametrize(
    ("name", "track", "telling"),
    [
        ("ragnarok_rag24_examples.jsonl", "rag24", "doc ids of msmarco_v2.1_doc_segmented"),
        ("ragnarok_rag25_ag_baseline.example.jsonl", "rag25", "integer citations"),
        ("T1_run_1.head3.jsonl", "ragtime26", "doc ids of ragtime/2/all"),
        ("organizer-gpt-oss-t2.jsonl", "dragun25", "doc-id list citations"),
        ("kiddie_run1.jsonl", "kiddie", "topic_id topic ids"),
    ],
)
def test_each_sample_run_is_recognised_as_its_track(name: str, track: str, telling: str) -> None:
    guess = recognise_track((RUNS / name).read_text(encoding="utf-8"))
    assert guess is not None
    assert (guess.spec, guess.confident) == (track, True)
    assert telling in guess.reasons


def test_rag25_and_rag26_are_told_apart_by_their_doc_ids() -> None:
    report = json.loads((RUNS / "ragnarok_rag25_ag_baseline.example.jsonl").read_text())
    ids = {d: f"shard_{n:05d}_{n * 7}" for n, d in enumerate(report["references"])}
    report["references"] = [ids[d] for d in report["references"]]
    report["metadata"]["run_desc"] = "the same run on ClimbMix"
    guess = recognise_track(json.dumps(report))
    assert guess is not None and guess.spec == "rag26"
    assert guess.reasons[0] == "doc ids of climbmix-400b"


def test_a_run_that_gives_nothing_away_is_not_claimed() -> None:
    guess = recognise_track('{"answer": []}\n')
    assert guess is not None and not guess.confident
    assert recognise_track("topic Q0 doc 1 2.0 tag\n") is None
