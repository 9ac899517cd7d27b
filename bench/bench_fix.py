"""Fix-all grows with the number of fixes, not with its square.

    python bench/bench_fix.py                  # ragtime26, 1,000 and 4,000 reports, 3 rounds
    python bench/bench_fix.py --spec rag25 -n 2000 --rounds 5

Two runs with seeded faults (tests/report_factory, seed 7), one of N reports and one of 4N,
are fixed in-process with every fix (`fix_text(..., unsafe=True)`, a fresh checker each
round, so no report is answered from the checker's cache); the median CPU time of
the rounds (steadier than wall time on a shared machine) is reported for each, and the ratio of the larger to the smaller. A linear fix-all
gives about 4 (the target is at most about 5); the old pairwise combiner gave about 16 on
large runs. The same fixes are then offered to the combiner alone and to the pairwise
comparison it replaced, as the reference measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the test helpers: tests.helpers

from citelens.check import Checker  # noqa: E402
from citelens.fixes.apply import fix_text  # noqa: E402
from citelens.source.edit_choice import choose_compatible  # noqa: E402
from citelens.specs import resolve_spec  # noqa: E402
from citelens.topics import parse_topics  # noqa: E402
from tests.helpers.edit_choice_oracle import pairwise_choice  # noqa: E402
from tests.helpers.report_factory import generate_run, topics_jsonl  # noqa: E402


def _median_time(work, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        work()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _measure(spec_id: str, spec: object, n: int, rounds: int) -> float:
    """Fix-all of an n-report run with seeded faults: the median seconds (and a line)."""
    lines, topics = generate_run(spec_id, n, 7)
    text = "\n".join(lines) + "\n"
    topic_set = parse_topics(topics_jsonl(topics))

    def checker() -> Checker:  # a fresh one each round: no report is answered from a cache
        return Checker(spec, topic_set, fixes=True)  # type: ignore[arg-type]

    outcome = fix_text(text, checker(), unsafe=True)
    groups = [f.fix.edits for f in checker().check_text(text).findings if f.fix is not None]
    fix_s = _median_time(lambda: fix_text(text, checker(), unsafe=True), rounds)
    choose_s = _median_time(lambda: choose_compatible(groups), rounds)
    pairwise_s = _median_time(lambda: pairwise_choice(groups), 1)
    print(
        f"{n:>6} reports, {len(text) / 1e6:5.1f} MB: {len(outcome.applied):>6} fixes applied; "
        f"fix-all {fix_s:6.2f} s; choosing among {len(groups)} fixes {choose_s * 1e3:7.1f} ms "
        f"(pairwise {pairwise_s * 1e3:8.1f} ms)"
    )
    return fix_s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="ragtime26")
    ap.add_argument("-n", type=int, default=1000, help="reports in the smaller run (the larger has 4x)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    spec = resolve_spec(args.spec)
    figures = {n: _measure(args.spec, spec, n, args.rounds) for n in (args.n, 4 * args.n)}
    small, large = figures[args.n], figures[4 * args.n]
    print(f"4x the reports: {large / small:.2f}x the fix-all time (target <= ~5)")


if __name__ == "__main__":
    main()
