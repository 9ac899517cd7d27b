"""A run with a duplicate topic and an index out of range: the related places' fixture."""

from __future__ import annotations

import json


def report(topic: str, cite: int, run_id: str = "r-😀") -> dict:
    return {
        "metadata": {
            "team_id": "t",
            "run_id": run_id,
            "narrative_id": topic,
            "narrative": "floods 東京",
            "type": "automatic",
        },
        "references": ["msmarco_v2.1_doc_00_1#1_2", "msmarco_v2.1_doc_00_3#4_5"],
        "answer": [{"text": "Rivers 🌊 flood.", "citations": [0, 1, cite]}],
    }


def related_run() -> str:
    lines = [report("7", 1), report("8", 5), report("7", 0)]
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines)


def first_topic_span(text: str) -> tuple[int, int]:
    start = text.index('"narrative_id": "7"') + len('"narrative_id": ')
    return start, start + 3
