"""Generated corpora in each real shape, and the expected document of every record."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

from tests.helpers.sample_data import DOCUMENTS

DATA = DOCUMENTS  # the sample corpora (tests/data/documents)

#: shape -> (id field, text field) as the real collections name them
SHAPE_FIELDS = {
    "neuclir": ("id", "text"),
    "climbmix": ("id", "contents"),
    "msmarco-seg": ("docid", "segment"),
    "msmarco-doc": ("docid", "body"),
    "spot-check": ("docno", "text"),
}

_WORDS = [
    "the",
    "of",
    "leaf",
    "tree",
    "colour",
    "water",
    "light",
    "green",
    "yellow",
    "autumn",
    "sugar",
    "cell",
    "wing",
    "flow",
    "drag",
    "lift",
]


def make_id(shape: str, n: int, rng: random.Random) -> str:
    if shape == "neuclir":
        return f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4{rng.getrandbits(12):03x}-{n:012d}"
    if shape == "climbmix":
        return f"shard_{n // 1000:05d}_{n % 1000}"
    if shape == "msmarco-seg":
        return f"msmarco_v2.1_doc_{n % 60:02d}_{n * 977}#{n % 7}_{n * 1013}"
    if shape == "msmarco-doc":
        return f"msmarco_v2.1_doc_{n % 60:02d}_{n * 977}"
    return str(n + 1)


def make_record(shape: str, n: int, rng: random.Random, words: int = 40) -> dict[str, Any]:
    id_field, text_field = SHAPE_FIELDS[shape]
    text = " ".join(rng.choice(_WORDS) for _ in range(words)) + f" ünïcode {n}"
    rec: dict[str, Any] = {id_field: make_id(shape, n, rng), text_field: text}
    if shape != "spot-check":
        rec["title"] = f"Title {n}"
        rec["url"] = f"https://example.org/{n}"
    if shape == "neuclir":
        rec.update(time="2022-01-01", cc_file="crawl-data/x.warc.gz", lang="zho")
    if shape == "msmarco-seg":
        rec.update(headings="H", start_char=0, end_char=len(text))
    return rec


def write_corpus(
    path: Path, shape: str, count: int, *, seed: int = 7, start: int = 0, words: int = 40
) -> list[dict[str, Any]]:
    """Write `count` records (appending when the file exists); returns them."""
    rng = random.Random(seed * 1_000_003 + start)
    records = [make_record(shape, n, rng, words) for n in range(start, start + count)]
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
    if path.name.endswith(".gz"):
        with gzip.open(path, "ab") as f:
            f.write(data)
    elif path.name.endswith(".zst"):
        import zstandard

        with open(path, "ab") as f:
            f.write(zstandard.ZstdCompressor().compress(data))
    else:
        with open(path, "ab") as f:
            f.write(data)
    return records


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a sample file (the oracle the tests compare with)."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
