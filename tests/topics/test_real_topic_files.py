"""A real topics file in -> the topics the checker will compare reports against."""

from __future__ import annotations

import pytest

from citelens.topics import Topic, TopicSet, load_topics
from tests.helpers.sample_data import TOPICS

DATA = TOPICS


def test_rag24_tsv_with_crlf_lines_loads_all_301_queries() -> None:
    topics = load_topics(DATA / "topics.rag24.test.txt")
    assert topics.format == "tsv"
    assert len(topics) == 301
    first = topics["2024-145979"]
    assert first == Topic("2024-145979", "what is vicarious trauma and how can it be coped with?", None, 1)
    assert not any(t.text.endswith("\r") for t in topics.values())  # CRLF is a line break, not text
    assert list(topics)[-1] == "2024-21669" and topics["2024-21669"].line == 301


def test_rag25_jsonl_id_and_title() -> None:
    topics = load_topics(DATA / "trec_rag_2025_queries.jsonl")
    assert (topics.format, len(topics)) == ("jsonl", 105)
    assert topics["464"].text.startswith("I want a thorough understanding of what makes up a community")
    assert topics["464"].fields["id"] == "464"


@pytest.mark.parametrize(
    ("name", "count", "first_id"),
    [
        ("trec_rag_2026_queries.tsv", 119, "rag2026-0"),
        ("rag25-topics-dev.tsv", 22, "14"),
    ],
)
def test_rag26_tsv_without_header(name: str, count: int, first_id: str) -> None:
    topics = load_topics(DATA / name)
    assert len(topics) == count
    assert next(iter(topics)) == first_id


def test_ragtime26_concatenated_objects_on_one_line_keep_their_limit() -> None:
    topics = load_topics(DATA / "topics_small.concatenated.jsonl")
    assert topics.format == "concatenated"
    assert list(topics) == ["2000", "2001", "2002"]
    assert all(t.line == 1 and t.limit == 5000 for t in topics.values())
    assert topics["2000"].text == "Anti-vaping Legislation"  # title wins over problem_statement
    assert topics["2000"].fields["collection_id"] == "ragtime/2/all"


def test_neuclir_request_without_title_falls_back_to_problem_statement() -> None:
    topics = load_topics(DATA / "report-generation-sample.request.zh.jsonl")
    assert list(topics) == ["253", "264", "269"]
    assert topics["264"].text.startswith("My report needs to contain how the fire started")
    assert topics["264"].limit == 500
    assert topics["264"].line == 2


def test_dragun_msmarco_documents_use_docid_and_title_without_trailing_newline() -> None:
    topics = load_topics(DATA / "trec-2025-dragun-topics.head3.jsonl")
    assert len(topics) == 3
    first = next(iter(topics.values()))
    assert first.id == "msmarco_v2.1_doc_04_420132660"
    assert first.text == "The Greek-Canadian Origins of the Hawaiian Pizza - Gastro Obscura"
    assert "body" in first.fields


def test_kiddie_request_ids() -> None:
    topics = load_topics(DATA / "kiddie-topics.jsonl")
    assert next(iter(topics)) == "leaf"
    assert topics["leaf"].text == "fall leaf color change chlorophyll"


def test_autojudge_topic_without_title_has_no_text() -> None:
    topics = load_topics(DATA / "example-rag-topics-invalid.jsonl")
    assert topics["28"].text == "my-topic number 28"
    assert topics["29"].text is None  # only `background`: none of the text members


def test_topic_set_is_an_ordered_mapping() -> None:
    topics = load_topics(DATA / "example-rag-topics.jsonl")
    assert isinstance(topics, TopicSet)
    assert list(topics.keys()) == ["28", "29"]
    assert "28" in topics and "30" not in topics
    assert topics.get("30") is None
