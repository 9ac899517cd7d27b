"""Seeded random report values in all three citation shapes, for oracle comparisons.

The values stay loadable (one citation shape per report) but reach into the corners
that conversion has to get right: repeated and out-of-range citations, confidence ties
and out-of-range scores, `null` versus `[]` citations, duplicate and partial references,
int topic ids, the topic id under any of its names, `answer` versus `responses`.
"""

from __future__ import annotations

import random
from typing import Any

from .vocabulary import MSMARCO_POOL, WORDS

SHAPES = ("neuclir", "ragtime", "rag24")
_DOCS = MSMARCO_POOL


def _text(rng: random.Random) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
    return rng.choice(["", "  ", "\n\n"]) + words if rng.random() < 0.1 else words


def _citations(rng: random.Random, shape: str, refs: list[str]) -> Any:
    roll = rng.random()
    if roll < 0.12:
        return "absent"
    if roll < 0.2:
        return None
    n = rng.choice([0, 0, 1, 1, 2, 3, 4, 5, 6])
    if shape == "neuclir":
        return [rng.choice(_DOCS[:8]) for _ in range(n)]
    if shape == "ragtime":
        ids = rng.sample(_DOCS, min(n, len(_DOCS)))
        scores = [rng.choice([0.5, 0.5, 1, 3.25, 0.0, 100.0, 250.0, -1.5, rng.random()]) for _ in ids]
        return dict(zip(ids, scores))
    top = max(len(refs), 1) + (2 if rng.random() < 0.2 else 0)
    return [rng.randrange(top) for _ in range(n)]


def _metadata(rng: random.Random) -> dict[str, Any]:
    topic = rng.choice(["28", "2000", "rag2026-7", "leaf", "msmarco_v2.1_doc_04_420132660"])
    md: dict[str, Any] = {
        "team_id": rng.choice(["t", "team A"]),
        "run_id": rng.choice(["r1", "run-" + "x" * 24]),
    }
    naming = rng.choice(["topic_id", "narrative_id", "both", "int_narrative", "with_request_id"])
    if naming == "topic_id":
        md["topic_id"] = topic
    elif naming == "narrative_id":
        md["narrative_id"] = topic
    elif naming == "both":
        md["topic_id"] = md["narrative_id"] = topic
    elif naming == "int_narrative":
        md["narrative_id"] = rng.randint(1, 500)
    else:
        md["topic_id"], md["request_id"] = topic, "stale-id"
    optional = {
        "narrative": "what causes leaves to change color",
        "type": rng.choice(["automatic", "manual"]),
        "use_starter_kit": rng.choice([0, 1]),
        "run_desc": "a run",
        "prompt": "extra key",
        "task": rng.choice(["english", "multilingual", "rag"]),
        "description": "d",
        "collection_ids": ["c"],
        "limit": 500,
    }
    for key, value in optional.items():
        if rng.random() < 0.4:
            md[key] = value
    return md


def generate_report(rng: random.Random, shape: str | None = None) -> dict[str, Any]:
    """One report value; `shape` picks the citation shape (random when None)."""
    shape = shape or rng.choice(SHAPES)
    refs_roll = rng.random()
    refs: list[str] | None
    if refs_roll < 0.15:
        refs = None
    elif refs_roll < 0.25:
        refs = []
    else:
        refs = rng.sample(_DOCS, rng.randint(1, 8))
        if rng.random() < 0.2:
            refs.append(refs[0])  # a duplicate entry
    sentences = []
    for _ in range(rng.randint(0, 6)):
        sentence: dict[str, Any] = {"text": _text(rng)}
        citations = _citations(rng, shape, refs or [])
        if citations != "absent":
            sentence["citations"] = citations
        if rng.random() < 0.1:
            sentence["evaldata"] = {"score": 1}
        sentences.append(sentence)
    value: dict[str, Any] = {"metadata": _metadata(rng)}
    key = rng.choice(["responses", "answer", "both"])
    if key == "both":
        value["responses"] = value["answer"] = sentences
    else:
        value[key] = sentences
    if refs is not None:
        value["references"] = refs
    if rng.random() < 0.1:
        value["is_ragtime"] = rng.random() < 0.5
    return value


def generate_reports(seed: int, count: int) -> list[dict[str, Any]]:
    """`count` reports, shapes taken in turn so each shape gets a third."""
    rng = random.Random(seed)
    return [generate_report(rng, SHAPES[i % 3]) for i in range(count)]
