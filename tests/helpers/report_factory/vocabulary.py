"""Words and doc ids the random report generators draw from (seeded by the caller)."""

from __future__ import annotations

import random

WORDS = [
    "the",
    "a",
    "river",
    "tax",
    "policy",
    "city",
    "water",
    "health",
    "leaf",
    "report",
    "evidence",
    "climate",
    "energy",
    "court",
    "vote",
    "market",
    "school",
    "price",
    "study",
    "law",
    "data",
    "model",
    "risk",
    "crop",
    "rain",
]
# words whose NFKC form or whitespace behaviour differs from the raw text
ODD_WORDS = [
    "ﬁnance",
    "Ｗａｔｅｒ",
    "x\u202fy",
    "km²",
    "e\u0301t\u00e9",
    "½",
    "Ⅻ",
    "\u2011dash",
    "naïve",
    "tab\tsep",
    "new\nline",
    "ﬀ",
]
KIDDIE_DOCS = ["Leaf", "Photosynthesis", "Autumn", "Chlorophyll", "Maple", "Tree", "Sun", "Water cycle"]


def text(rng: random.Random, n_words: int) -> str:
    words = [rng.choice(ODD_WORDS) if rng.random() < 0.05 else rng.choice(WORDS) for _ in range(n_words)]
    return " ".join(words)


def docid(rng: random.Random, style: str) -> str:
    if style == "climbmix":
        return f"shard_{rng.randrange(100000):05d}_{rng.randrange(10**6)}"
    if style == "msmarco":
        return f"msmarco_v2.1_doc_{rng.randrange(60):02d}_{rng.randrange(10**9)}#{rng.randrange(30)}_{rng.randrange(10**9)}"
    if style == "uuid":
        h = "".join(rng.choice("0123456789abcdef") for _ in range(32))
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}_{rng.randrange(10**9)}"
    return rng.choice(KIDDIE_DOCS)


def docid_style(spec) -> str:
    pat = spec.docid_pattern or ""
    if pat.startswith("shard"):
        return "climbmix"
    if pat.startswith("msmarco"):
        return "msmarco"
    if pat.startswith("[0-9a-f]"):
        return "uuid"
    return "wiki"


#: a fixed pool of MS MARCO v2.1 segment ids, so that reports share and repeat citations
MSMARCO_POOL = [f"msmarco_v2.1_doc_{i:02d}_{i * 7919}#{i % 4}_{i * 104729}" for i in range(12)]
