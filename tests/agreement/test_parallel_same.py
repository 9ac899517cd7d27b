"""Checking a big run in forked workers gives exactly the findings of one process.

Story: `citelens check` splits a big file across cores. Whatever the split, every
finding (per report and across reports: a duplicate topic whose first report is in
another worker's share, missing topics, narratives) is the same, at the same place,
as the single-process check the agreement tests compare with the reference.
"""

from __future__ import annotations

import pytest

from citelens.check import Checker, workers
from citelens.specs import get_spec
from citelens.topics import parse_topics
from tests.helpers.report_factory import generate_run, topics_jsonl


@pytest.mark.skipif(not workers.can_fork(), reason="no fork start method on this platform")
@pytest.mark.parametrize("spec_id", ["rag25", "ragtime26"])
def test_forked_workers_find_what_one_process_finds(spec_id, monkeypatch):
    calls = []
    real = workers.forked_collect
    monkeypatch.setattr(workers, "forked_collect", lambda *a: calls.append(1) or real(*a))
    lines, topics = generate_run(spec_id, workers.MIN_REPORTS + 500, 9)
    text = "\n".join(lines) + "\n"
    topic_set = parse_topics(topics_jsonl(topics), "<topics>")
    spec = get_spec(spec_id)
    one = Checker(spec, topic_set).check_text(text, "<run>")
    forked = Checker(spec, topic_set, workers=3).check_text(text, "<run>")
    assert len(one.findings) > 100
    assert calls, "the forked path was not taken"
    assert forked.findings == one.findings
    assert {f.code for f in one.findings} >= {"duplicate_topics", "missing_topics", "new_topics"}
