"""Re-checking after a keystroke: one-character edits inside one report of a 1,000-report
rag25 run (about 1.3 MB, seeded faults, with its topics file), then the findings.

    python bench/bench_session.py                 # 1,000 reports, 200 edits
    python bench/bench_session.py -n 1000 --edits 400 --spec rag25

Three figures, measured in the same run on the same edits (median milliseconds):
- session: `OpenDocument.apply_changes([one char])` then `.result.findings` (what the
  language server does on every change); target <= 10 ms;
- full re-check: `Checker.check_text(new text)` with the same, warm checker (its
  per-report cache hit for every unchanged report): what re-checking cost before;
- cold check: a new `Checker` on the whole text (the first check of a file).
The full and cold checks run on the text after every 5th edit.
The session's findings after every 5th edit are compared with the full re-check's (equal).
The edits are timed first, then the full re-checks of the same texts, in separate loops.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the test helpers: tests.helpers

from tests.helpers.report_factory import generate_run, topics_jsonl  # noqa: E402


def _ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def run(spec: str, n: int, edits: int, clean: bool, seed: int = 7) -> dict:
    from citelens.check import Checker
    from citelens.session import TextChange, Workspace
    from citelens.specs import get_spec
    from citelens.topics import load_topics

    lines, topics = generate_run(spec, n, seed, fault_free=clean)
    text = "\n".join(lines) + "\n"
    folder = Path(tempfile.mkdtemp(prefix="bench-session-"))
    topics_path = folder / "topics.jsonl"
    topics_path.write_text(topics_jsonl(topics), encoding="utf-8")
    ws = Workspace([folder], cli={"spec": spec, "topics": str(topics_path)})
    doc = ws.open(folder / "run.jsonl", text, version=0)
    first = doc.result  # the first check, as on opening the file
    checker = Checker(get_spec(spec), load_topics(topics_path))
    checker.check_text(text)  # warm, like the session's checker

    rng = random.Random(seed)
    times: dict[str, list[float]] = {k: [] for k in ("session", "session_cpu", "full", "full_cpu", "cold")}
    texts: list[tuple[str, list]] = []  # the text after every 5th edit and the session's findings
    for k in range(edits):
        # a character typed into (or deleted from) a sentence text of one random report
        item = doc.items[rng.randrange(len(doc.items))]
        at = doc.text.find('"text": "', item.start, item.end)
        at = (at + len('"text": "') + 3) if at >= 0 else item.start + 1
        change = TextChange(at, at, "x") if k % 2 == 0 else TextChange(at, at + 1, "")
        w0, c0 = time.perf_counter(), time.process_time()
        doc.apply_changes([change], version=k + 1)
        findings = doc.result.findings
        times["session"].append(time.perf_counter() - w0)
        times["session_cpu"].append(time.process_time() - c0)
        if k % 5 == 0:  # not all: the findings kept alive would slow the collector down
            texts.append((doc.text, findings))
    # then the same texts re-checked whole (a separate loop, so neither side's garbage
    # is collected on the other's clock)
    equal = True
    for k, (edited, findings) in enumerate(texts):
        w0, c0 = time.perf_counter(), time.process_time()
        full = checker.check_text(edited, str(doc.path))
        times["full"].append(time.perf_counter() - w0)
        times["full_cpu"].append(time.process_time() - c0)
        equal = equal and full.findings == findings
        if k % 5 == 0:
            w0 = time.perf_counter()
            Checker(get_spec(spec), load_topics(topics_path)).check_text(edited)
            times["cold"].append(time.perf_counter() - w0)
    return {
        "file": "clean" if clean else "faults",
        "reports": len(doc.items),
        "bytes": len(doc.text.encode("utf-8")),
        "findings": len(first.findings),
        "edits": edits,
        **{f"{k}_median_ms": _ms(v) for k, v in times.items()},
        "equal": equal,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="rag25")
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=200)
    args = ap.parse_args()
    ok = True
    print(f"{args.spec}, {args.edits} one-character edits per file; median ms, wall (CPU of this process)")
    for clean in (False, True):
        r = run(args.spec, args.n, args.edits, clean)
        print(
            f"{r['file']:6}: {r['reports']} reports, {r['bytes'] / 1e6:.2f} MB, {r['findings']} findings | "
            f"session edit + findings {r['session_median_ms']:.2f} ({r['session_cpu_median_ms']:.2f}) | "
            f"full re-check {r['full_median_ms']:.2f} ({r['full_cpu_median_ms']:.2f}) | "
            f"cold check {r['cold_median_ms']:.1f} | "
            f"session / full {r['session_cpu_median_ms'] / r['full_cpu_median_ms']:.3f} (CPU)"
        )
        ok = ok and r["equal"]
    print("session findings equal the full re-check's (every 5th edit compared):", ok)
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
