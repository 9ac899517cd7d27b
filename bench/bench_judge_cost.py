"""Cost of one lexical judgement: the time `judge_support` takes per labelled pair, with
the documents prepared first (as a run that cites each document many times), against a
reference source tree measured in the same run, alternately.

    python bench/bench_judge_cost.py --reference /work/main/src --rounds 4

Only sentences and documents are read (no label), from the first `--pairs` pairs of
bench/data/support/pairs.jsonl (default 311: the pairs both trees have had). Each round
times this tree and the reference once each in a fresh interpreter; the fastest round of
each is reported, as the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from support_eval_set import load_pairs
from citelens.support import judge_support
pairs = load_pairs()[: int(sys.argv[2])]
for p in pairs:  # prepare every document once, and warm the stemmer's caches
    judge_support(p.sentence, p.document)
start = time.perf_counter()
for _ in range(3):
    for p in pairs:
        judge_support(p.sentence, p.document)
print(json.dumps((time.perf_counter() - start) / (3 * len(pairs))))
"""


def per_pair(src: Path, pairs: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(ROOT / "bench"), str(pairs)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(json.loads(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, help="the other tree's src folder")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=311)
    args = parser.parse_args(argv)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.rounds):
        ours.append(per_pair(ROOT / "src", args.pairs))
        theirs.append(per_pair(args.reference, args.pairs))
    a, b = min(ours), min(theirs)
    print(f"this tree:  {1e6 * a:.0f} µs a pair (rounds: {', '.join(f'{1e6 * t:.0f}' for t in ours)})")
    print(f"reference:  {1e6 * b:.0f} µs a pair (rounds: {', '.join(f'{1e6 * t:.0f}' for t in theirs)})")
    print(f"ratio:      {a / b:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
