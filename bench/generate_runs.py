"""Write benchmark run files: N reports for a spec, with their topics.

    python bench/generate_runs.py --spec ragtime26 -n 10000 --out bench/out

writes `<spec>-clean.jsonl` (every report valid, one per topic), `<spec>-faults.jsonl`
(seeded faults that autojudge-base can still load: its CLI aborts on the first line it
cannot load, so those lines are dropped) and `<spec>.topics.jsonl` (request_id, title,
limit: a topics file both tools read). The generator is tests/helpers/report_factory/runs.py.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the test helpers: tests.helpers

from tests.helpers.report_factory import generate_run, topics_jsonl  # noqa: E402


def write_runs(spec: str, n: int, out: Path, seed: int = 7) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    clean, topics = generate_run(spec, n, seed, fault_free=True)
    paths = {
        "clean": out / f"{spec}-clean.jsonl",
        "faults": out / f"{spec}-faults.jsonl",
        "topics": out / f"{spec}.topics.jsonl",
    }
    paths["topics"].write_text(topics_jsonl(topics), encoding="utf-8")
    paths["clean"].write_text("\n".join(clean) + "\n", encoding="utf-8")
    os.environ.setdefault("NLTK_DATA", str(ROOT / "tests" / "fixtures" / "nltk_data"))
    from agreement.reference import load_line

    faulty: list[str] = []
    extra = 0
    while len(faulty) < n:  # same topics file: faults include missing/duplicate/new topics
        lines, _ = generate_run(spec, n, seed + extra, loadable_faults_only=True)
        faulty.extend(line for line in lines if load_line(line) is not None)
        extra += 1
    paths["faults"].write_text("\n".join(faulty[:n]) + "\n", encoding="utf-8")
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="ragtime26")
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    args = ap.parse_args()
    for kind, path in write_runs(args.spec, args.n, args.out).items():
        print(f"{kind}: {path}")


if __name__ == "__main__":
    main()
