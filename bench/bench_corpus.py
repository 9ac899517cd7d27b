"""Benchmark the document sources: build the embedded index, look documents up, check with --docs.

    python bench/bench_corpus.py [--docs 1000000] [--out DIR] [--reports 300]

1. writes a generated corpus of N RAGTIME-shaped documents of about 1 KB (about 1 GB for a
   million; kept in --out and reused) holding every doc id cited by a generated 300-report run;
2. times `citelens index CORPUS --db DB` end to end (a fresh index; target: >= 50,000 docs/s);
3. times 1,000 single-id lookups through the `IndexSource`, 10% of them misses (target: p99 < 1 ms);
4. times `citelens check RUN --docs DB` against the same check without `--docs`, best of
   --rounds each (target: at most 1.5x).
The machine's load average is printed with the figures: other work on the machine slows
the absolute numbers (the check ratio is measured in one run, so both sides share it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def _citelens() -> list[str]:
    return [sys.executable, "-m", "citelens"]


def cited_ids(run: Path) -> list[str]:
    """Every doc id a run cites or references."""
    ids: dict[str, None] = {}
    for line in run.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        report = json.loads(line)
        for response in report.get("responses", []):
            citations = response.get("citations") or []
            ids.update(dict.fromkeys(str(c) for c in citations))
        ids.update(dict.fromkeys(str(r) for r in report.get("references") or []))
    return list(ids)


def write_corpus(path: Path, count: int, must_have: list[str], seed: int = 3) -> list[str]:
    """A RAGTIME/NeuCLIR-shaped corpus of `count` docs including `must_have`; returns its ids."""
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(4000)
    ]
    texts = [" ".join(rng.choices(words, k=170))[:950] for _ in range(1000)]
    ids = list(must_have)
    while len(ids) < count:
        ids.append(
            f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4{rng.getrandbits(12):03x}-8{rng.getrandbits(12):03x}-{rng.getrandbits(48):012x}_{rng.randint(0, 999999)}"
        )
    rng.shuffle(ids)
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "w", encoding="utf-8") as f:
        chunk = []
        for n, doc_id in enumerate(ids):
            chunk.append(
                json.dumps(
                    {
                        "id": doc_id,
                        "title": f"Document {n}",
                        "text": texts[n % 1000],
                        "url": f"https://example.org/{n}",
                        "time": "2024-05-01",
                        "cc_file": "cc/x.warc.gz",
                        "lang": "zho",
                    }
                )
            )
            if len(chunk) >= 10000:
                f.write("\n".join(chunk) + "\n")
                chunk = []
        if chunk:
            f.write("\n".join(chunk) + "\n")
    tmp.rename(path)
    (path.with_suffix(".ids.json")).write_text(json.dumps(ids))
    return ids


def timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - started, done


def child_cpu() -> float:
    """CPU seconds (user + system) used by finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=1_000_000)
    ap.add_argument("--reports", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "citelens-bench-corpus")
    args = ap.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {os.getloadavg()[0]:.2f} (2-core machine: {os.cpu_count()} cpus)")

    from generate_runs import write_runs  # bench/ is on sys.path as the script's folder

    runs = write_runs("ragtime26", args.reports, out)
    run, topics = runs["clean"], runs["topics"]
    cited = cited_ids(run)
    corpus = out / f"corpus-{args.docs}.jsonl"
    if corpus.exists() and corpus.with_suffix(".ids.json").exists():
        ids = json.loads(corpus.with_suffix(".ids.json").read_text())
        if not set(cited) <= set(ids):
            ids = write_corpus(corpus, args.docs, cited)
    else:
        ids = write_corpus(corpus, args.docs, cited)
    size = corpus.stat().st_size
    print(
        f"corpus: {corpus} ({len(ids):,} docs, {size / 1e9:.2f} GB); run: {run} ({args.reports} reports, {len(cited)} cited ids)"
    )

    db = out / "index.sqlite"
    for suffix in ("", "-wal", "-shm", ".lock"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    cpu_before = child_cpu()
    seconds, done = timed([*_citelens(), "index", str(corpus), "--db", str(db), "--quiet"])
    cpu = child_cpu() - cpu_before
    assert done.returncode == 0, done.stderr
    rate = len(ids) / seconds
    print(
        f"index: `citelens index {corpus.name} --db {db.name}`: {seconds:.1f} s wall, {rate:,.0f} docs/s "
        f"(target >= 50,000); {cpu:.1f} s CPU, {len(ids) / cpu:,.0f} docs per CPU-second; "
        f"index {db.stat().st_size / 1e9:.2f} GB; load {os.getloadavg()[0]:.2f}"
    )

    from citelens.corpus import IndexSource

    source = IndexSource(db)
    rng = random.Random(9)
    asked = [rng.choice(ids) if rng.random() >= 0.1 else f"missing-{n}" for n in range(1000)]
    source.get_many(asked[:10])  # open the file and the statement cache
    times, cpu_times = [], []
    for doc_id in asked:
        started, cpu_started = time.perf_counter(), time.thread_time()
        answer = source.get_many([doc_id])
        times.append(time.perf_counter() - started)
        cpu_times.append(time.thread_time() - cpu_started)
        assert (answer.documents.get(doc_id) is None) == doc_id.startswith("missing-")
    times.sort()
    cpu_times.sort()
    print(
        f"lookups: 1,000 single ids (10% misses): wall p50 {times[500] * 1e6:.0f} µs, "
        f"p99 {times[990] * 1e6:.0f} µs (target p99 < 1,000 µs); "
        f"CPU p50 {cpu_times[500] * 1e6:.0f} µs, p99 {cpu_times[990] * 1e6:.0f} µs; load {os.getloadavg()[0]:.2f}"
    )

    base = [
        *_citelens(),
        "check",
        str(run),
        "--spec",
        "ragtime26",
        "--topics",
        str(topics),
        "--format",
        "json",
    ]
    help_text = subprocess.run([*_citelens(), "check", "--help"], capture_output=True, text=True).stdout
    if "--docs" not in help_text:
        print("check --docs: not available in this build")
        return
    without, with_docs = [], []
    for _ in range(args.rounds):
        t, plain = timed(base)
        without.append(t)
        t, docs = timed([*base, "--docs", str(db)])
        with_docs.append(t)
    unknown = docs.stdout.count("unknown_document")
    print(
        f"check: {args.reports} reports: without --docs {min(without):.2f} s, with --docs {min(with_docs):.2f} s "
        f"(best of {args.rounds}): {min(with_docs) / min(without):.2f}x (target <= 1.5x); "
        f"unknown_document findings: {unknown}; load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
