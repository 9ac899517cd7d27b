"""Run texts for the session tests: generated runs (every spec, seeded faults) in the
three layouts, and the real sample runs kept with the other tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.report_factory import generate_run, topics_jsonl
from tests.helpers.sample_data import RUNS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SAMPLE_RUNS = sorted(RUNS.glob("*.jsonl")) + sorted(
    p for p in EXAMPLES.glob("*.jsonl") if "topics" not in p.name
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
