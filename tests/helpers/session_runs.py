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


#: what the edit tests insert: line breaks of every kind, non-BMP and CJK text, JSON
#: punctuation that breaks or joins reports
EDIT_SNIPPETS = [
    "",
    "x",
    "\n",
    "\r\n",
    "\r",
    "😀",
    "中文",
    "\u2028",
    '"',
    ",",
    "{",
    "}",
    "]",
    "[",
    '"citations": [0, 1]',
    '{"a": 1}\n',
    " ",
    "\n\n",
    "1e400",
]

#: generated runs of several specs in each layout, to edit
EDIT_BASES = {
    (spec, layout, seed): generated(spec, 6, seed, layout)
    for spec in ("rag25", "ragtime25", "rag24", "dragun25")
    for layout in ("jsonl", "array")
    for seed in (1, 2)
} | {("rag26", "object", 1): generated("rag26", 1, 1, "object")}
