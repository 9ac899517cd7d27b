"""Small report builders shared by the engine tests."""

import json


def report(**over):
    """A clean rag26 report; keyword arguments replace top-level parts."""
    base = {
        "metadata": {
            "team_id": "t",
            "narrative_id": "rag2026-0",
            "narrative": "N",
            "run_id": "r",
            "run_desc": "d",
        },
        "references": ["shard_00001_1", "shard_00002_2"],
        "answer": [{"text": "One sentence.", "citations": [0]}, {"text": "Two.", "citations": [1]}],
    }
    base.update(over)
    return base


def line(value, *, ensure_ascii: bool = True) -> str:
    """One JSONL line (no newline)."""
    return json.dumps(value, ensure_ascii=ensure_ascii)
