"""The faulty run the real editors open: astral and CJK characters before the positions
that matter, a duplicate reference (a safe quick fix), a citation out of range, and the
cited documents embedded (for the hover's evidence)."""

from __future__ import annotations

import json
from pathlib import Path

DOC_A = "msmarco_v2.1_doc_45_546308869#11_963663453"
DOC_B = "msmarco_v2.1_doc_45_546308869#10_963661464"


def write_run(folder: Path) -> tuple[Path, str]:
    report = {
        "run_id": "run-😀-漢字",
        "topic_id": 23287,
        "topic": "flooding 🌊 in 東京 cities",
        "references": [DOC_A, DOC_A, DOC_B],
        "response_length": 12,
        "answer": [
            {"text": "Rivers 🌊 flood 東京 cities when it rains.", "citations": [0, 2]},
            {"text": "Heavy rain <script>alert(1)</script> causes floods.", "citations": [7]},
        ],
        "documents": {
            DOC_A: {
                "id": DOC_A,
                "title": "Floods `and` <b>rivers</b>",
                "text": "Rivers flood cities when it rains a lot.",
            },
            DOC_B: {"id": DOC_B, "text": "Heavy rain causes floods in low cities."},
        },
    }
    second = dict(
        report, topic_id=23288, references=[DOC_B], answer=[{"text": "Rain 🌧 falls.", "citations": [0]}]
    )
    second.pop("documents")
    text = json.dumps(report, ensure_ascii=False) + "\n" + json.dumps(second, ensure_ascii=False) + "\n"
    (folder / "citelens.toml").write_text('spec = "rag24"\n', encoding="utf-8")
    path = folder / "faulty.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text


def hover_offset(text: str) -> int:
    """The code-point offset of the first citation, `0`, of the first sentence."""
    return text.index('"citations": [0, 2]') + len('"citations": [')
