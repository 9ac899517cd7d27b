"""Run texts for the session tests: generated runs (every spec, seeded faults) in the
three layouts, and the real sample runs kept with the other tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))

from report_factory import generate_run, topics_jsonl  # noqa: E402

SAMPLE_RUNS = sorted(
    list((TESTS / "data" / "runs").glob("*.jsonl"))
    + [p for p in (ROOT / "examples").glob("*.jsonl") if "topics" not in p.name]
)


def generated(spec: str, n: int, seed: int, layout: str = "jsonl") -> tuple[str, str]:
    """(run text, topics JSONL text) of a generated run written in `layout`."""
    lines, topics = generate_run(spec, n, seed)
    if layout == "array":
        values = []
        for line in lines:
            try:
                values.append(json.loads(line))
            except ValueError:
                continue
        text = json.dumps(values, ensure_ascii=False, indent=2) + "\n"
    elif layout == "object":
        text = json.dumps(json.loads(lines[0]), indent=2) + "\n"
    else:
        text = "\n".join(lines) + "\n"
    return text, topics_jsonl(topics)
