"""Cursor lookups on the real sample runs: every offset inside a report maps to the
innermost node whose span holds it, with a pointer that names that node; sentences and
citations resolve the way a reader would (rag24 indices through `references`)."""

from __future__ import annotations

import json

import pytest

from citelens.session import Workspace
from citelens.source.json_nodes import pointer_tokens
from tests.helpers.session_runs import SAMPLE_RUNS, generated


def resolve(value, pointer):
    for token in pointer_tokens(pointer):
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


@pytest.mark.parametrize("path", SAMPLE_RUNS, ids=lambda p: p.name)
def test_node_at_every_offset_is_the_innermost_node_holding_it(path):
    text = path.read_text(encoding="utf-8")
    doc = Workspace().open(path, text)
    spans = [(i.start, i.end, i) for i in doc.items]
    for offset in range(len(text)):
        info = doc.node_at(offset)
        inside = [i for s, e, i in spans if s <= offset < e and i.ok]
        if not inside:
            assert info is None
            continue
        item = inside[0]
        assert info is not None and info.report == item.index
        assert info.start <= offset < info.end
        for parent in info.parents:
            assert (
                parent.start <= info.start and info.end <= parent.end and parent.kind in ("object", "array")
            )
        assert info.parents == () or info.parents[-1].pointer == ""
        if info.kind == "key":
            assert json.loads(text[info.start : info.end]) == pointer_tokens(info.pointer)[-1]
        else:
            node_text = text[info.start : info.end]
            assert json.loads(node_text) == resolve(item.value, info.pointer)
            # innermost: no child of this node (nor a key) holds the offset
            node = doc.report_node(item)
            for token in pointer_tokens(info.pointer):
                node = node.child(token)
            assert (node.start, node.end) == (info.start, info.end)
            children = [(m.key_start, m.key_end) for m in node.members]
            children += [(c.start, c.end) for c in [m.value for m in node.members] + node.items]
            assert not any(s <= offset < e for s, e in children)


def test_a_rag24_citation_resolves_through_references():
    text = (
        '{"metadata": {"run_id": "r", "team_id": "t", "topic_id": "1", "narrative": "n", "type": "automatic"},'
        ' "references": ["doc-a", "doc-b"],'
        ' "answer": [{"text": "One.", "citations": [1]}, {"text": "Two 😀.", "citations": [0, 1]}]}\n'
    )
    doc = Workspace(cli={"spec": "rag24"}).open("untitled:r", text)
    at = text.index("[0, 1]") + 1
    cit = doc.citation_at(at)
    assert cit is not None and cit.doc_id == "doc-a" and cit.shape == "rag24"
    assert cit.pointer == "/answer/1/citations/0" and text[cit.start : cit.end] == "0"
    sentence = doc.sentence_at(at)
    assert sentence.index == 1 and sentence.text == "Two 😀."
    assert [c.doc_id for c in sentence.citations] == ["doc-a", "doc-b"]
    assert doc.citation_at(text.index("One")) is None


def test_ragtime_citations_carry_their_scores():
    text = (
        '{"metadata": {"run_id": "r", "team_id": "t", "topic_id": "1"},'
        ' "responses": [{"text": "A.", "citations": {"d1": 0.5, "d2": 2}}]}\n'
    )
    doc = Workspace(cli={"spec": "ragtime25"}).open("untitled:r", text)
    cit = doc.citation_at(text.index('"d2"') + 1)
    assert (cit.doc_id, cit.score, cit.shape, cit.index) == ("d2", 2.0, "ragtime", 1)
    assert cit.pointer == "/responses/0/citations/d2"
    key = doc.node_at(text.index('"d1"'))
    assert key.kind == "key" and key.pointer == "/responses/0/citations/d1"
    assert [p.pointer for p in key.parents] == ["/responses/0/citations", "/responses/0", "/responses", ""]


def test_a_score_too_large_for_a_float_is_no_score_not_a_crash():
    text = (
        '{"metadata": {"run_id": "r", "team_id": "t", "topic_id": "1"},'
        ' "responses": [{"text": "A.", "citations": {"d1": 1' + "0" * 400 + "}}]}\n"
    )
    doc = Workspace(cli={"spec": "ragtime25"}).open("untitled:r", text)
    (sentence,) = doc.sentences(0)
    assert [(c.doc_id, c.score) for c in sentence.citations] == [("d1", None)]


def test_nothing_between_reports_or_in_a_broken_one():
    text, _ = generated("rag25", 3, 1)
    text = text.replace("\n", "\n\n", 1) + "{not json\n"
    doc = Workspace(cli={"spec": "rag25"}).open("untitled:r", text)
    assert doc.node_at(text.index("\n\n") + 1) is None
    assert doc.node_at(len(text) - 3) is None
    assert doc.node_at(0).pointer == "" and doc.node_at(0).report == 0


def test_a_doc_id_list_citation_is_its_own_doc_id():
    text = (
        '{"metadata": {"run_id": "r", "team_id": "t", "topic_id": "1"},'
        ' "responses": [{"text": "A.", "citations": ["doc-9", "doc-3"]}]}\n'
    )
    doc = Workspace(cli={"spec": "kiddie"}).open("untitled:r", text)
    cit = doc.citation_at(text.index('"doc-3"'))
    assert (cit.doc_id, cit.score, cit.shape, cit.index, cit.sentence) == ("doc-3", None, "neuclir", 1, 0)


def test_the_sentences_kept_for_a_hover_follow_edits_moves_and_renumbering():
    """`OpenDocument.sentences` keeps the last report's: after an edit of that report, of
    one before it (it moves) and a report inserted before it (it is renumbered), they are
    what a freshly opened document gives."""
    from citelens.session.changes import TextChange
    from tests.helpers.report_factory import generate_run

    lines, _ = generate_run("rag25", 3, 1, fault_free=True)
    doc = Workspace(cli={"spec": "rag25"}).open("untitled:run", "\n".join(lines) + "\n")

    def fresh(report: int):
        return Workspace(cli={"spec": "rag25"}).open("untitled:run", doc.text).sentences(report)

    first = doc.sentences(1)
    assert first and doc.sentences(1) is first and first == fresh(1)  # kept while nothing changes
    at = doc.text.index('"text": "', doc.items[1].start) + len('"text": "')
    edits = [
        TextChange(at, at, "Grown "),  # report 1 itself
        TextChange(3, 3, "  "),  # report 0: report 1 moves
        TextChange(0, 0, doc.text[: doc.items[0].end] + "\n"),  # a report before: renumbered
    ]
    for edit in edits:
        doc.apply_changes([edit])
        report = 2 if edit is edits[-1] else 1
        assert doc.sentences(report) == fresh(report)
        assert [s.start for s in doc.sentences(report)] == [s.start for s in fresh(report)]
