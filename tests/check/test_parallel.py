"""Big files may be checked by forked worker processes; the findings must not change."""

import json

import pytest

from citelens.check import Checker, workers
from citelens.specs import get_spec
from tests.helpers.report_factory import report


@pytest.mark.skipif(not workers.can_fork(), reason="needs the fork start method")
def test_forked_workers_give_the_same_findings(monkeypatch):
    monkeypatch.setattr(workers, "MIN_REPORTS", 10)
    lines = []
    for i in range(60):
        value = report(metadata={**report()["metadata"], "narrative_id": f"rag2026-{i % 50}"})
        if i % 7 == 0:
            value["references"].append("not a climbmix id")
        lines.append(json.dumps(value))
    text = "\n".join(lines) + "\n{broken\n"
    serial = Checker(get_spec("rag26")).check_text(text).findings
    forked = Checker(get_spec("rag26"), workers=3).check_text(text).findings
    assert forked == serial
    assert {f.code for f in serial} >= {"docid_pattern", "duplicate_topics", "json_syntax"}
