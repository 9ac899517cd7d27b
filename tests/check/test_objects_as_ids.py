"""An object or a list where a document id belongs (in `references`, or in a sentence's
`citations`) is a finding, never a traceback: the id check's fast path took every id
as hashable (found by tests/session/test_incremental.py's generated edits)."""

from __future__ import annotations

import pytest

from citelens.check import Checker
from citelens.specs import get_spec

RAG25_META = (
    '"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1", "type": "automatic", "narrative_id": "1"}'
)


@pytest.mark.parametrize(
    ("spec", "text", "code"),
    [
        (
            "rag24",
            '{"narrative_id": "1", "references": [{"a": 1}], "answer": [{"text": "x y z", "citations": [0]}]}',
            "schema",
        ),
        (
            "rag24",
            '{"narrative_id": "1", "references": [["a"]], "answer": [{"text": "x y z", "citations": [0]}]}',
            "schema",
        ),
        (
            "rag25",
            "{" + RAG25_META + ', "responses": [{"text": "x y z", "citations": [{"a": 1}]}]}',
            "citation_format",
        ),
        (
            "rag25",
            "{" + RAG25_META + ', "responses": [{"text": "x y z", "citations": [["a"]]}]}',
            "citation_format",
        ),
    ],
)
def test_an_object_where_an_id_belongs_is_reported(spec: str, text: str, code: str) -> None:
    result = Checker(get_spec(spec)).check_text(text + "\n", "run.jsonl")
    assert code in {f.code for f in result.findings}
