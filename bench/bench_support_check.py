"""Whole-process time of `citelens check --support` on a generated run: cold, with the
verdict cache warm, and without --support (the reference measured in the same run).

    python bench/bench_support_check.py                 # 300 reports, 3 rounds
    python bench/bench_support_check.py --reports 300 --rounds 5 --executor process

The run: 300 reports of 10 sentences (real sentences of the DRAGUN runs), each citing 3
documents of the 30 DRAGUN topic documents (real MS MARCO bodies, about 8,000 characters
each), indexed once with `citelens index --db` and given to every check as
`--docs index:PATH` (so the check without --support looks the cited ids up too). Cold =
an empty verdict cache each round; warm = the cache filled by that round's cold run,
timed alternately with the plain check (`--samples` pairs a round).
Target: the warm re-check within 1.2x of the check without --support.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "support"


def write_run(out: Path, reports: int, seed: int = 5) -> tuple[Path, Path]:
    rng = random.Random(seed)
    docs = [json.loads(line) for line in (DATA / "documents.jsonl").read_text().splitlines()]
    docs = [d for d in docs if d["id"].startswith("msmarco")]
    sentences = sorted(
        {json.loads(line)["sentence"] for line in (DATA / "pairs.jsonl").read_text().splitlines()}
    )
    doc_path = out / "documents.jsonl"
    doc_path.write_text("".join(json.dumps({"id": d["id"], "text": d["text"]}) + "\n" for d in docs))
    run_path = out / "run.jsonl"
    with run_path.open("w") as fh:
        for n in range(reports):
            responses = [
                {"text": rng.choice(sentences), "citations": [d["id"] for d in rng.sample(docs, 3)]}
                for _ in range(10)
            ]
            report = {
                "metadata": {"team_id": "t", "run_id": "gen", "topic_id": f"t{n}"},
                "responses": responses,
            }
            fh.write(json.dumps(report) + "\n")
    return run_path, doc_path


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children); on a shared machine the
    CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--executor", default="process")
    parser.add_argument(
        "--samples", type=int, default=5, help="plain and warm runs per round (they take a tenth of a second)"
    )
    args = parser.parse_args(argv)
    exe = [sys.executable, "-m", "citelens"]
    # as an installed package has it: bytecode compiled once (with PYTHONDONTWRITEBYTECODE
    # set, each timed process would otherwise compile the modules it imports, on both sides)
    import citelens

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(citelens.__file__).parent)], check=True
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        run, docs = write_run(out, args.reports)
        cache = out / "cache.sqlite"
        index = out / "index.sqlite"
        subprocess.run([*exe, "index", "--db", str(index), "--quiet", str(docs)], check=True)
        base = [*exe, "check", str(run), "--docs", f"index:{index}"]
        support = [
            *base,
            "--support",
            "--executor",
            args.executor,
            "--support-cache",
            str(cache),
        ]
        plain, cold, warm = [], [], []
        for _ in range(args.rounds):
            cache.unlink(missing_ok=True)
            cold.append(timed(support))
            for _ in range(args.samples):  # the two short runs side by side, several times
                plain.append(timed(base))
                warm.append(timed(support))
        judgements = args.reports * 10 * 3
        print(
            f"{args.reports} reports, {judgements} citations, executor {args.executor}, "
            f"median of {args.rounds} cold and {args.rounds * args.samples} plain and warm runs"
        )
        print("                             wall s   CPU s")
        (pw, pc), (cw, cc), (ww, wc) = (
            (statistics.median(t[0] for t in x), statistics.median(t[1] for t in x))
            for x in (plain, cold, warm)
        )
        print(f"  check (no --support)      {pw:7.2f} {pc:7.2f}")
        print(f"  check --support, cold     {cw:7.2f} {cc:7.2f}   ({judgements / cw:,.0f} judgements/s wall)")
        print(f"  check --support, warm     {ww:7.2f} {wc:7.2f}")
        print(f"  warm / no --support: {ww / pw:.2f}x wall, {wc / pc:.2f}x CPU (target <= 1.2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
