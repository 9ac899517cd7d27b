"""The one place tests (and bench/) get report values and run files from.

- `report(**over)` / `line(value)`: one clean rag26 report to edit by hand (the rule and
  placement tests).
- `generate_reports(seed, count)`: seeded loadable report values in all three citation
  shapes, reaching into the corners conversion must get right (the conversion and model
  oracles).
- `generate_run(spec_id, n, seed)` / `make_topics` / `topics_jsonl`: seeded JSONL runs
  written for one track spec, about two thirds with faults, and their topics (the
  agreement suites and the benchmarks).

The random generators draw their words and doc ids from `vocabulary`.
"""

from .fixed import line, report
from .runs import generate_run, make_topics, topics_jsonl
from .values import SHAPES, generate_report, generate_reports

__all__ = [
    "SHAPES",
    "generate_report",
    "generate_reports",
    "generate_run",
    "line",
    "make_topics",
    "report",
    "topics_jsonl",
]
