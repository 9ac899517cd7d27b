"""Request ids and Document text pieces, side by side with the reference library."""

from __future__ import annotations

import contextlib
import copy
import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.models import Document, Request, load_requests_from_file
from tests.helpers.reference_oracle import reference
from tests.helpers.sample_data import TOPICS


def _outcome(model: Any, value: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "loaded", model.model_validate(copy.deepcopy(value)).model_dump(mode="json")
    except Exception as exc:
        return "raised", type(exc).__name__


@pytest.mark.parametrize(
    "value",
    [
        {"request_id": "28", "title": "t"},
        {"request_id": "28", "title": "t", "topic_id": "28", "narrative_id": "28"},
        {"request_id": "28", "title": "t", "topic_id": "29"},
        {"request_id": "28", "title": "t", "narrative_id": 28},
        {"request_id": 28, "title": "t"},
        {"request_id": "28"},
        {"request_id": "2000", "title": "t", "limit": 5000, "problem_statement": "p", "background": "b"},
    ],
    ids=["plain", "consistent aliases", "inconsistent", "int alias", "int id", "no title", "ragtime"],
)
def test_request_matches_the_reference(value: dict[str, Any]) -> None:
    assert _outcome(Request, value) == _outcome(reference().request.Request, value)


def test_request_aliases_mirror_request_id() -> None:
    request = Request(request_id="2000", title="t")
    assert request.topic_id == request.narrative_id == "2000"


def test_request_files_load_and_a_line_without_title_fails() -> None:
    requests = load_requests_from_file(TOPICS / "example-rag-topics.jsonl")
    assert [r.request_id for r in requests] == ["28", "29"]
    with pytest.raises(Exception) as ours:
        load_requests_from_file(TOPICS / "example-rag-topics-invalid.jsonl")
    with pytest.raises(Exception) as theirs:
        reference().request.load_requests_from_file(TOPICS / "example-rag-topics-invalid.jsonl")
    assert type(ours.value) is type(theirs.value)


def test_document_text_has_the_title_in_front() -> None:
    assert Document(id="d", text="body", title="Title").get_text() == "Title body"
    assert Document(id="d", text="body").get_text() == "body"
    assert Document(id="d", text="x", docno="7").model_dump()["docno"] == "7"  # other keys are kept


_texts = st.text(alphabet=st.sampled_from(list("ab .\n\n\t ")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(text=_texts, title=st.one_of(st.none(), _texts), limit=st.integers(min_value=0, max_value=40))
def test_document_pieces_match_the_reference(text: str, title: str | None, limit: int) -> None:
    ours = Document(id="d", text=text, title=title)
    theirs = reference().document.Document(id="d", text=text, title=title)
    assert ours.get_text() == theirs.get_text()
    assert ours.get_paragraphs() == theirs.get_paragraphs()
    assert ours.get_sentences() == theirs.get_sentences()
    with contextlib.redirect_stdout(io.StringIO()):  # the reference prints when it splits
        expected = theirs.get_text_chunks(limit)
    assert ours.get_text_chunks(limit) == expected


def test_text_chunks_respect_sentence_boundaries_and_are_cached() -> None:
    doc = Document(id="d", text="one two\nthree\nfour five six")
    assert doc.get_text_chunks(8) == ["one two", "three", "four five six"]
    assert doc.get_text_chunks(8) is doc.get_text_chunks(8)
    assert doc.get_text_chunks(100) == ["one two\nthree\nfour five six"]
