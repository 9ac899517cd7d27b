"""Alignment speed: citelens.align against cite-right 0.4.0's default (Rust) path.

One 30-word answer sentence, planted verbatim in document 0, against synthetic
5,000-word documents of 8-25-word sentences (words drawn Zipf-like from the sample
MS MARCO documents). Four timings, each the median of alternating runs:

* cold, 1 doc     - ``align_citations(answer, [doc])`` on a document never seen before
                    (a fresh text per run, our document cache emptied);
* prepared, 1 doc - a prepared corpus built once, ``corpus.align(answer)`` only;
* cold / prepared with 100 documents;
* fresh process, 1 doc - import of the library plus the cold call, in a new interpreter;
* with ``--reports``: the 15 sample DRAGUN reports (115 sentences) against the 15 sample
  MS MARCO documents, prepared - a paraphrase-heavy workload.

    .venv/bin/python bench/bench_align.py [--runs 7] [--docs 100] [--reports]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "documents" / "dragun_docs.jsonl"


def vocabulary() -> tuple[list[str], list[float]]:
    counts: dict[str, int] = {}
    with open(DATA, encoding="utf-8") as fh:
        for line in fh:
            for w in re.findall(r"[A-Za-z][a-z']+", json.loads(line)["body"]):
                counts[w] = counts.get(w, 0) + 1
    words = sorted(counts, key=lambda w: -counts[w])
    return words, [1.0 / (rank + 1) for rank in range(len(words))]


def make_doc(rng: random.Random, words, weights, n_words: int = 5000) -> str:
    sentences, total = [], 0
    while total < n_words:
        k = rng.randint(8, 25)
        s = rng.choices(words, weights, k=k)
        sentences.append(" ".join(s).capitalize() + ".")
        total += k
    return " ".join(sentences)


def plant(doc: str, sentence: str) -> str:
    cut = doc.find(". ", len(doc) // 3) + 2
    return doc[:cut] + sentence + " " + doc[cut:]


_PROCESS = """
import json, sys, time
t = time.perf_counter()
answer, doc = json.load(sys.stdin)
if sys.argv[1] == "ours":
    from citelens.align import align_citations
else:
    from cite_right import align_citations
result = align_citations(answer, [doc])
assert result[0].status == "supported"
print(time.perf_counter() - t)
"""


def fresh_process(answer: str, doc: str, runs: int) -> tuple[float, float]:
    """Import + align in a new interpreter (interpreter start-up itself not counted)."""
    import subprocess
    import sys

    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    payload = json.dumps([answer, doc])
    for run in range(runs):
        for who in ("ours", "theirs") if run % 2 == 0 else ("theirs", "ours"):
            out = subprocess.run(
                [sys.executable, "-c", _PROCESS, who],
                input=payload,
                capture_output=True,
                text=True,
                check=True,
            )
            times[who].append(float(out.stdout.strip()))
    return median_ms(times["ours"]), median_ms(times["theirs"])


def reports_workload(runs: int) -> tuple[float, float]:
    """All sentences of the sample DRAGUN reports against the sample topic documents."""
    import cite_right

    from citelens.align import PreparedCitationCorpus

    data = DATA.parent
    with open(data / "dragun_docs.jsonl", encoding="utf-8") as fh:
        topics = {d["docid"]: d["body"] for d in map(json.loads, fh)}
    with open(data / "dragun_run.jsonl", encoding="utf-8") as fh:
        reports = [r for r in map(json.loads, fh) if r["metadata"]["topic_id"] in topics]
    answers = [" ".join(x["text"] for x in r["responses"]) for r in reports]
    docs = list(topics.values())
    corpora = {
        "ours": PreparedCitationCorpus.from_sources(docs),
        "theirs": cite_right.PreparedCitationCorpus.from_sources(docs),
    }
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    for run in range(runs + 1):
        for who in ("ours", "theirs") if run % 2 == 0 else ("theirs", "ours"):
            t = time.perf_counter()
            for a in answers:
                corpora[who].align(a)
            if run:  # the first round warms both up
                times[who].append(time.perf_counter() - t)
    return median_ms(times["ours"]), median_ms(times["theirs"])


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument(
        "--reports",
        action="store_true",
        help="also time the 15 sample DRAGUN reports against their 15 MS MARCO documents (prepared)",
    )
    args = ap.parse_args()

    import cite_right

    from citelens.align import PreparedCitationCorpus, align_citations
    from citelens.align.corpus import DOCUMENT_CACHE
    from citelens.align.tokenizer import SHARED_VOCABULARY

    words, weights = vocabulary()
    rng = random.Random(7)
    answer = " ".join(rng.choices(words[50:3000], k=29)).capitalize() + " end."
    assert len(answer.split()) == 30
    base_docs = [make_doc(rng, words, weights) for _ in range(args.docs)]
    base_docs[0] = plant(base_docs[0], answer)

    def fresh(docs: list[str], run: int, who: str) -> list[str]:
        # A new first sentence per run and side: nobody gets a cache hit on the text.
        return [f"Run {who} {run} document {i}. " + d for i, d in enumerate(docs)]

    def ours_cold(docs):
        DOCUMENT_CACHE.clear()
        SHARED_VOCABULARY.clear_cache()
        t = time.perf_counter()
        r = align_citations(answer, docs)
        return time.perf_counter() - t, r

    def theirs_cold(docs):
        t = time.perf_counter()
        r = cite_right.align_citations(answer, docs)
        return time.perf_counter() - t, r

    def ours_prepared(corpus):
        t = time.perf_counter()
        r = corpus.align(answer)
        return time.perf_counter() - t, r

    theirs_prepared = ours_prepared

    # warm both libraries' imports and code paths once
    align_citations(answer, base_docs[:1])
    cite_right.align_citations(answer, base_docs[:1])

    rows = []
    for label, n in (("1 doc", 1), (f"{args.docs} docs", args.docs)):
        docs = base_docs[:n]
        cold = {"ours": [], "theirs": []}
        for run in range(args.runs):
            for who in ("ours", "theirs") if run % 2 == 0 else ("theirs", "ours"):
                gc.collect()
                fn = ours_cold if who == "ours" else theirs_cold
                dt, res = fn(fresh(docs, run, who))
                assert res[0].status == "supported", (who, res[0].status)
                cold[who].append(dt)
        ours_corpus = PreparedCitationCorpus.from_sources(docs)
        theirs_corpus = cite_right.PreparedCitationCorpus.from_sources(docs)
        ours_prepared(ours_corpus), theirs_prepared(theirs_corpus)
        prep = {"ours": [], "theirs": []}
        for run in range(args.runs * 3):
            for who in ("ours", "theirs") if run % 2 == 0 else ("theirs", "ours"):
                corpus = ours_corpus if who == "ours" else theirs_corpus
                dt, res = ours_prepared(corpus)
                prep[who].append(dt)
        rows.append((f"cold, {label}", median_ms(cold["ours"]), median_ms(cold["theirs"])))
        rows.append((f"prepared, {label}", median_ms(prep["ours"]), median_ms(prep["theirs"])))

    rows.append(("fresh process, 1 doc", *fresh_process(answer, base_docs[0], args.runs)))
    if args.reports:
        rows.append(("prepared, 15 reports", *reports_workload(args.runs)))

    print(f"answer: 30 words; documents: {len(base_docs[0].split())} words each; runs: {args.runs}")
    print(f"{'setup':<22}{'citelens ms':>12}{'cite-right ms':>15}{'ratio':>8}  target")
    for name, ours, theirs in rows:
        target = (
            "-"
            if "reports" in name or "process" in name
            else "<= 1.0"
            if name.startswith("prepared")
            else "<= 2.0"
        )
        print(f"{name:<22}{ours:>12.2f}{theirs:>15.2f}{ours / theirs:>8.2f}  {target}")


if __name__ == "__main__":
    main()
