"""Small generated files: each accepted shape, the field precedence, and tolerated noise."""

from __future__ import annotations

import json

from citelens.topics import TOPIC_FIELDS, parse_topics


def test_json_array_like_the_starter_kit_narratives_file() -> None:
    text = '[\n  {"id": 1, "narrative": "one"},\n  {"id": 2, "narrative": "two"}\n]\n'
    topics = parse_topics(text, "narratives.json")
    assert topics.format == "json-array"
    assert list(topics) == ["1", "2"]  # int ids become strings
    assert topics["2"].text == "two" and topics["2"].line == 3


def test_pretty_printed_objects_start_on_their_first_line() -> None:
    text = '{\n  "topic_id": "a",\n  "text": "x"\n}\n{\n  "topic_id": "b",\n  "text": "y"\n}\n'
    topics = parse_topics(text)
    assert [(t.id, t.line) for t in topics.values()] == [("a", 1), ("b", 5)]


def test_concatenated_objects_with_spaces_between_them() -> None:
    topics = parse_topics('{"topic_id": "1", "limit": 10} {"topic_id": "2", "limit": "20"}')
    assert topics.format == "concatenated"
    assert [t.limit for t in topics.values()] == [10, 20]


def test_bom_crlf_and_blank_lines_are_tolerated() -> None:
    text = '\ufeff{"request_id": "1", "title": "a"}\r\n\r\n\r\n{"request_id": "2", "title": "b"}\r\n'
    topics = parse_topics(text)
    assert [(t.id, t.text, t.line) for t in topics.values()] == [("1", "a", 1), ("2", "b", 4)]
    tsv = parse_topics("\ufeff1\tfirst\r\n\r\n2\tsecond\r\n")
    assert [(t.id, t.text, t.line) for t in tsv.values()] == [("1", "first", 1), ("2", "second", 3)]


def test_tsv_keeps_the_text_exactly_and_skips_a_header_row() -> None:
    topics = parse_topics("qid\tquery\n7\t  spaced text\twith a tab \n")
    assert list(topics) == ["7"]
    assert topics["7"].text == "  spaced text\twith a tab "  # narrative checks compare exactly
    assert topics["7"].line == 2


def test_id_precedence_follows_the_table() -> None:
    record = {name: f"from-{name}" for name in TOPIC_FIELDS["id"]}
    for name in TOPIC_FIELDS["id"]:
        topic = next(iter(parse_topics(json.dumps(record)).values()))
        assert topic.id == f"from-{name}"
        del record[name]
        if not record:
            break


def test_text_precedence_follows_the_table_and_skips_nulls() -> None:
    record = {"request_id": "1", "title": None, "narrative": "N", "problem_statement": "P"}
    assert parse_topics(json.dumps(record))["1"].text == "N"
    record = {"request_id": "1", "problem_statement": "P", "text": "T"}
    assert parse_topics(json.dumps(record))["1"].text == "T"


def test_thousands_of_topics_all_load() -> None:
    # the time it takes is measured in bench/bench_unit_limits.py
    lines = [
        json.dumps({"topic_id": str(i), "title": f"topic {i} " * 20, "limit": 5000}) for i in range(20000)
    ]
    topics = parse_topics("\n".join(lines))
    assert len(topics) == 20000
    assert topics["19999"].text == "topic 19999 " * 20
