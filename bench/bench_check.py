"""Whole-process time of `citelens check` against autojudge-base's `report_tool check`.

    python bench/bench_check.py                       # ragtime26, 10,000 reports, 5 rounds
    python bench/bench_check.py --spec rag25 --rounds 7 --out /tmp/bench

Both tools check the same 10,000-report file with the same topics file: once a clean
run, once a run with seeded faults that the reference can still load (its CLI aborts on
the first line it cannot load). Runs alternate between the tools (the order flips every
round) and the median of each is reported, with the ratio ours / reference. As a floor,
a plain `json.loads` loop over the file is timed in-process and as its own process;
`citelens --help` shows the start-up cost. Targets: <= 0.5 of the reference on both
files (stretch 0.25), and within 2.5x of the json.loads process.

The reference imports NLTK, which reads a stopwords corpus at import: NLTK_DATA points
at the stub in tests/fixtures/nltk_data, so nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from generate_runs import write_runs  # noqa: E402

JSON_LOOP = (
    "import json, sys\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    for line in f:\n"
    "        if line.strip():\n"
    "            json.loads(line)\n"
)


def _citelens() -> list[str]:
    exe = Path(sys.executable).with_name("citelens")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "citelens"]


def _timed(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds user+sys) of one run of `cmd` as its own process. CPU
    time is the steadier figure on a shared machine; wall time is what a user waits."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    _timed.last_code = proc.returncode  # type: ignore[attr-defined]
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _json_in_process(path: Path) -> float:
    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                json.loads(line)
    return time.perf_counter() - t0


def run(spec: str, n: int, rounds: int, out: Path) -> dict:
    paths = {
        "clean": out / f"{spec}-clean.jsonl",
        "faults": out / f"{spec}-faults.jsonl",
        "topics": out / f"{spec}.topics.jsonl",
    }
    if (
        not all(p.exists() for p in paths.values())
        or sum(1 for _ in open(paths["clean"], encoding="utf-8")) != n
    ):
        paths = write_runs(spec, n, out)
    env = dict(os.environ, NLTK_DATA=str(ROOT / "tests" / "fixtures" / "nltk_data"))
    topics = str(paths["topics"])
    tools = {
        "citelens": lambda f: _citelens() + ["check", str(f), "--spec", spec, "--topics", topics],
        "reference": lambda f: [
            sys.executable,
            "-m",
            "autojudge_base.report_tool",
            "check",
            str(f),
            "--spec",
            spec,
            "--topics",
            topics,
        ],
        "json_process": lambda f: [sys.executable, "-c", JSON_LOOP, str(f)],
    }
    times: dict[str, dict[str, list[float]]] = {k: {t: [] for t in tools} for k in ("clean", "faults")}
    cpu: dict[str, dict[str, list[float]]] = {k: {t: [] for t in tools} for k in ("clean", "faults")}
    codes: dict[str, dict[str, int]] = {k: {} for k in times}
    in_process: dict[str, list[float]] = {k: [] for k in times}
    for r in range(rounds):
        order = list(tools) if r % 2 == 0 else list(reversed(tools))
        for kind in ("clean", "faults"):
            for tool in order:
                wall, cpu_s = _timed(tools[tool](paths[kind]), env)
                times[kind][tool].append(wall)
                cpu[kind][tool].append(cpu_s)
                codes[kind][tool] = _timed.last_code  # type: ignore[attr-defined]
            in_process[kind].append(_json_in_process(paths[kind]))
    helps = [_timed(_citelens() + ["--help"], env)[0] for _ in range(max(rounds, 5))]
    result: dict = {"spec": spec, "reports": n, "rounds": rounds, "files": {}}
    for kind in times:
        med = {tool: statistics.median(v) for tool, v in times[kind].items()}
        med["json_in_process"] = statistics.median(in_process[kind])
        result["files"][kind] = {
            "path": str(paths[kind]),
            "bytes": paths[kind].stat().st_size,
            "median_s": med,
            "exit_codes": codes[kind],
            "ratio_vs_reference": med["citelens"] / med["reference"],
            "ratio_vs_json_process": med["citelens"] / med["json_process"],
            "ratio_vs_json_in_process": med["citelens"] / med["json_in_process"],
            "all_s": {tool: [round(x, 3) for x in v] for tool, v in times[kind].items()},
            "median_cpu_s": {tool: statistics.median(v) for tool, v in cpu[kind].items()},
            "cpu_ratio_vs_reference": statistics.median(cpu[kind]["citelens"])
            / statistics.median(cpu[kind]["reference"]),
            "cpu_ratio_vs_json_process": statistics.median(cpu[kind]["citelens"])
            / statistics.median(cpu[kind]["json_process"]),
        }
    result["help_median_s"] = statistics.median(helps)
    return result


def phases(spec: str, path: Path, topics_path: Path) -> dict[str, float]:
    """Where the in-process time of `Checker.check_path` goes, phase by phase (seconds,
    best of 3): what is left to optimise, and what a plain json.loads loop costs."""
    from citelens.check import Checker, run_rules
    from citelens.check.rules.coverage import check_coverage, report_facts
    from citelens.source.json_locate import Locator
    from citelens.source.run_text import decode, read_source
    from citelens.specs import get_spec
    from citelens.topics import load_topics

    def best(fn) -> tuple[float, object]:
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            out = fn()
            runs.append(time.perf_counter() - t0)
        return min(runs), out

    sp = get_spec(spec)
    out: dict[str, float] = {}
    out["load_topics"], topics = best(lambda: load_topics(topics_path))
    out["read_bytes"], data = best(path.read_bytes)
    out["decode_utf8"], (text, problems) = best(lambda: decode(data))
    out["json_loads_plain"], _ = best(
        lambda: [json.loads(line) for line in text.splitlines() if line.strip()]
    )
    out["read_source (line index + json.loads with hooks)"], source = best(
        lambda: read_source(text, problems)
    )
    out["run_rules (all reports)"], views = best(
        lambda: [run_rules(item.value, sp, topics=topics) for item in source.items]
    )

    def place() -> None:
        for item, view in zip(source.items, views):
            if view.findings:
                locator = Locator(text, item.start)
                for f in view.findings:
                    locator.span(f.pointer, f.target)

    out["place findings (pointer -> span)"], _ = best(place)
    facts = [report_facts(i, v) for i, v in enumerate(views) if isinstance(v.value, dict)]
    out["cross-report rules"], _ = best(lambda: check_coverage(facts, sp, topics, lambda i, f: None))
    out["Checker.check_path total"], result = best(lambda: Checker(sp, topics).check_path(path))
    out["findings"] = len(result.findings)
    return out


def show(result: dict) -> None:
    print(
        f"spec {result['spec']}, {result['reports']} reports per file, {result['rounds']} alternating rounds "
        "(median wall seconds)"
    )
    print(
        f"{'file':8} {'citelens':>9} {'reference':>10} {'json proc':>10} {'json in-proc':>13} "
        f"{'ours/ref':>9} {'ours/json proc':>15} {'ours/json in-proc':>18}"
    )
    for kind, f in result["files"].items():
        m = f["median_s"]
        print(
            f"{kind:8} {m['citelens']:9.3f} {m['reference']:10.3f} {m['json_process']:10.3f} "
            f"{m['json_in_process']:13.3f} {f['ratio_vs_reference']:9.2f} {f['ratio_vs_json_process']:15.2f} "
            f"{f['ratio_vs_json_in_process']:18.2f}"
        )
    print("CPU seconds (user+sys of the process; steadier on a shared machine):")
    for kind, f in result["files"].items():
        c = f["median_cpu_s"]
        print(
            f"{kind:8} {c['citelens']:9.3f} {c['reference']:10.3f} {c['json_process']:10.3f} {'':13} "
            f"{f['cpu_ratio_vs_reference']:9.2f} {f['cpu_ratio_vs_json_process']:15.2f}"
        )
    print(f"citelens --help: {result['help_median_s']:.3f} s")
    for kind, ph in result.get("phases", {}).items():
        print(f"in-process phases ({kind}, best of 3):")
        for name, value in ph.items():
            print(f"    {name:52} {value:8.3f}" if isinstance(value, float) else f"    {name:52} {value:8}")
    for kind, f in result["files"].items():
        print(f"exit codes ({kind}): {f['exit_codes']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="ragtime26")
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "citelens-bench")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--phases", action="store_true", help="also break the in-process time into phases")
    args = ap.parse_args()
    result = run(args.spec, args.n, args.rounds, args.out)
    if args.phases:
        result["phases"] = {
            kind: phases(
                args.spec, Path(result["files"][kind]["path"]), args.out / f"{args.spec}.topics.jsonl"
            )
            for kind in result["files"]
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)


if __name__ == "__main__":
    main()
