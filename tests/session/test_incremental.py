"""An open document edited through `apply_changes` gives exactly the findings of a fresh
check of its final text, whatever the edits: across line breaks, CRLF, lone CR, raw
U+2028, emoji and CJK, edits that break a report's JSON or join two reports, and edits
that change the file's layout."""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citelens.check import Checker
from citelens.session import TextChange, Workspace
from citelens.source.line_index import LineIndex
from citelens.specs import get_spec
from citelens.topics import parse_topics
from tests.helpers.session_runs import EDIT_BASES as BASES
from tests.helpers.session_runs import EDIT_SNIPPETS as SNIPPETS


def fresh(text: str, spec: str, topics_text: str | None):
    topics = parse_topics(topics_text) if topics_text else None
    return Checker(get_spec(spec), topics).check_text(text, "run.jsonl")


change = st.tuples(st.floats(0, 1), st.integers(0, 40), st.sampled_from(SNIPPETS), st.sampled_from(SNIPPETS))


@settings(
    max_examples=int(os.environ.get("CITELENS_SESSION_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# found by this test: an object where a document id belongs (a TypeError in the id
# check); two syntax errors at one place (their order); an edit inside a broken
# element's span, which runs on past the elements read after it
@example(
    base=("rag24", "array", 2),
    with_topics=False,
    batches=[[(0.25, 10, "", '{"a": 1}\n'), (0.4453125, 11, "", '{"a": 1}\n')]],
)
@example(base=("rag24", "array", 2), with_topics=False, batches=[[(0.25, 10, "", ""), (1.0, 0, "x", "x")]])
@example(base=("rag24", "array", 2), with_topics=False, batches=[[(0.25, 10, "", ""), (0.5, 0, "", "x")]])
# an array turned into JSON lines: a broken element's error depends on what follows it
@example(
    base=("rag25", "array", 1),
    with_topics=False,
    batches=[[(1 / 3, 16, '{"a": 1}\n', "{")], [(0.0, 0, "", "x")]],
)
# a broken element's syntax error sits on the next element's first character
@example(base=("dragun25", "array", 1), with_topics=False, batches=[[(0.5, 0, "", '{"a": 1}\n')]])
@example(
    base=("dragun25", "array", 1), with_topics=False, batches=[[(1.0, 0, "", "{"), (0.75, 0, "\n", "{")]]
)
@given(
    base=st.sampled_from(sorted(BASES)),
    with_topics=st.booleans(),
    batches=st.lists(st.lists(change, min_size=1, max_size=3), min_size=1, max_size=5),
)
def test_edits_give_the_findings_of_a_fresh_check(tmp_path_factory, base, with_topics, batches):
    text, topics_text = BASES[base]
    spec = base[0]
    cli = {"spec": spec}
    if with_topics:
        topics_path = tmp_path_factory.mktemp("t") / "topics.jsonl"
        topics_path.write_text(topics_text, encoding="utf-8")
        cli["topics"] = str(topics_path)
    ws = Workspace(cli=cli)
    doc = ws.open("untitled:run.jsonl", text, version=0)
    assert doc.result.findings == fresh(text, spec, topics_text if with_topics else None).findings
    expected_text = text
    for version, batch in enumerate(batches, start=1):
        changes = []
        for where, length, first, second in batch:
            start = int(where * len(expected_text))
            end = min(start + length, len(expected_text))
            new = first + second
            changes.append(TextChange(start, end, new))
            expected_text = expected_text[:start] + new + expected_text[end:]
        doc.apply_changes(changes, version=version)
        assert doc.text == expected_text and doc.version == version
        want = fresh(expected_text, spec, topics_text if with_topics else None)
        got = doc.result
        # what a hover or a code action reads, before the whole list is placed
        assert got.code_counts() == Counter(f.code for f in want.findings)
        for where, length, _, _ in batch:
            lo = int(where * len(expected_text))
            hi = min(lo + length, len(expected_text))
            assert got.findings_meeting(lo, hi) == [f for f in want.findings if f.start <= hi and f.end >= lo]
        assert got.findings == want.findings
        assert got.reports == want.reports
        assert got.line_index.starts == LineIndex(expected_text).starts


def test_a_whole_text_change_replaces_everything():
    text, _ = BASES[("rag25", "jsonl", 1)]
    doc = Workspace(cli={"spec": "rag25"}).open("untitled:a", "garbage")
    doc.apply_changes([TextChange.whole(text)], version=3)
    assert doc.result.findings == fresh(text, "rag25", None).findings


def test_an_edit_inside_one_report_rechecks_that_report_only():
    text, _ = BASES[("rag25", "jsonl", 2)]
    ws = Workspace(cli={"spec": "rag25"})
    doc = ws.open("untitled:a", text)
    assert doc.result.findings  # every report checked once
    calls = []
    checker = doc.checker
    original = checker.report_outcome

    def counting(t, item):
        calls.append(item.index)
        return original(t, item)

    checker.report_outcome = counting
    second_line = text.index("\n") + 1
    at = text.index('"', second_line + 5)
    doc.apply_changes([TextChange(at, at, "x")])
    assert doc.result.findings == fresh(doc.text, "rag25", None).findings
    assert calls == [1]


def test_an_edit_inside_one_element_of_an_array_rechecks_that_element_only():
    text, _ = BASES[("ragtime25", "array", 1)]
    doc = Workspace(cli={"spec": "ragtime25"}).open("untitled:a", text)
    assert doc.result.findings == fresh(text, "ragtime25", None).findings
    calls = []
    original = doc.checker.report_outcome

    def counting(t, item):
        calls.append(item.index)
        return original(t, item)

    doc.checker.report_outcome = counting
    third = doc.items[2]
    at = doc.text.index('"text": "', third.start) + len('"text": "')
    doc.apply_changes([TextChange(at, at, "😀 中文\u2028")])
    assert doc.result.findings == fresh(doc.text, "ragtime25", None).findings
    assert calls == [2]
