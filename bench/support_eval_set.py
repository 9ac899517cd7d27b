"""The labelled support evaluation set (bench/data/support): pairs, documents and hand labels."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent / "data" / "support"
LABELS = ("supported", "partial", "unsupported")


@dataclass(frozen=True)
class LabelledPair:
    id: str
    sentence: str
    doc_id: str
    document: str
    label: str
    split: str
    pairing: str


def load_pairs(split: str | None = None, data: Path = DATA) -> list[LabelledPair]:
    """All labelled pairs (or one split: "tune" / "heldout"), in file order."""
    documents = {
        d["id"]: d["text"] for d in map(json.loads, (data / "documents.jsonl").read_text().splitlines())
    }
    labels: dict[str, str] = {}
    for line in (data / "labels.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pair_id, label = line.split("\t")[:2]
            if label not in LABELS:
                raise ValueError(f"labels.tsv: {pair_id}: unknown label {label!r}")
            labels[pair_id] = label
    pairs = []
    for line in (data / "pairs.jsonl").read_text().splitlines():
        p = json.loads(line)
        if split is not None and p["split"] != split:
            continue
        pairs.append(
            LabelledPair(
                p["id"],
                p["sentence"],
                p["doc_id"],
                documents[p["doc_id"]],
                labels[p["id"]],
                p["split"],
                p["pairing"],
            )
        )
    return pairs
