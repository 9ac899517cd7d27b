"""`citelens report` and its page: how long the page takes to open, and to make.

    python bench/bench_overview.py                 # 1,000 and 10,000 reports, 5 rounds

For runs of 1,000 and 10,000 generated RAGTIME 2026 reports (seeded faults,
bench/generate_runs.py's generator), it writes the overview page and times in headless
chromium (offline) the opening of the page until its script has drawn the tables, against
a baseline page in the same run: the same embedded data, whose script only parses it
(the floor any page with that data pays). It also times `citelens report` against
`citelens check --format json` on the same file (the overview adds the sentence positions
and the page to the check). Needs node, chromium and `npm ci` in vscode-extension/e2e.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from tests.helpers.report_factory import generate_run, topics_jsonl  # noqa: E402

BASELINE = (
    '<!doctype html><html><head><meta charset="utf-8"></head><body>'
    '<script type="application/json" id="overview-data">{data}</script>'
    "<script>JSON.parse(document.getElementById('overview-data').textContent);"
    "document.body.setAttribute('data-ready','true');</script></body></html>"
)


def _seconds(argv: list[str], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        subprocess.run(argv, check=False, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    citelens = str(Path(sys.executable).parent / "citelens")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in args.sizes:
            lines, topics = generate_run("ragtime26", n, 7)
            run = folder / f"run{n}.jsonl"
            run.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            (folder / f"topics{n}.jsonl").write_text(topics_jsonl(topics), encoding="utf-8")
            options = ["--spec", "ragtime26", "--topics", str(folder / f"topics{n}.jsonl")]
            page = folder / f"overview{n}.html"
            make = [citelens, "report", str(run), *options, "-o", str(page), "--force"]
            report_s = _seconds(make, max(1, args.rounds // 2))
            check_s = _seconds(
                [citelens, "check", str(run), *options, "--format", "json"], max(1, args.rounds // 2)
            )
            data = re.search(
                r'id="overview-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.S
            ).group(1)
            baseline = folder / f"baseline{n}.html"
            baseline.write_text(BASELINE.format(data=data), encoding="utf-8")
            proc = subprocess.run(
                [
                    "node",
                    str(ROOT / "bench" / "overview_load.mjs"),
                    str(args.rounds),
                    str(page),
                    str(baseline),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            opened = json.loads(proc.stdout)
            ours, floor = opened[str(page)], opened[str(baseline)]
            size = page.stat().st_size / 1e6
            print(
                f"{n:>6} reports ({size:.1f} MB page): opens in {ours} ms, baseline {floor} ms "
                f"(ratio {ours / floor:.2f}); citelens report {report_s:.1f} s, check {check_s:.1f} s "
                f"(ratio {report_s / check_s:.2f})"
            )


if __name__ == "__main__":
    main()
