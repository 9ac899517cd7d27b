"""A broken topics file -> one clear error naming the line and column."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citelens.topics import TopicFileError, load_topics, parse_topics


def error_of(text: str) -> TopicFileError:
    with pytest.raises(TopicFileError) as info:
        parse_topics(text, "topics.jsonl")
    return info.value


def test_a_line_that_is_neither_tsv_nor_json() -> None:
    err = error_of("1\tfirst\n2\tsecond\njust some words\n")
    assert (err.line, err.column) == (3, 1)
    assert "neither TSV (id<TAB>text) nor JSON" in err.reason
    assert str(err).startswith("topics.jsonl:3:1: ")


def test_a_json_line_inside_a_tsv_file_says_one_format() -> None:
    err = error_of('1\tfirst\n  {"id": "2"}\n')
    assert (err.line, err.column) == (2, 3)
    assert "one format" in err.reason


def test_an_object_without_any_id_names_the_fields_looked_for() -> None:
    err = error_of('{"request_id": "1", "title": "a"}\n{"title": "b", "background": "c"}\n')
    assert (err.line, err.column) == (2, 1)
    assert "request_id, topic_id, narrative_id, id, docid" in err.reason
    assert "'title'" in err.reason  # and the keys it has


def test_duplicate_ids_point_at_the_second_and_name_the_first() -> None:
    err = error_of('{"id": 5}\n{"id": "6"}\n{"id": "5"}\n')
    assert err.line == 3
    assert err.reason == "duplicate topic id '5' (first on line 1)"
    tsv = error_of("a\tx\r\nb\ty\r\na\tz\r\n")
    assert tsv.line == 3 and "first on line 1" in tsv.reason


def test_invalid_json_points_at_the_bad_character() -> None:
    err = error_of('{"id": "1"}\n{"id": "2", "title": oops}\n')
    assert err.line == 2 and err.column == 22
    assert err.reason.startswith("not valid JSON: ")


def test_tsv_line_in_a_jsonl_file() -> None:
    err = error_of('{"id": "1"}\n2\tsecond\n')
    assert err.line == 2 and "one format" in err.reason


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('{"id": true}', 1, "must be a string or an integer, not a boolean"),
        ('{"id": ""}', 1, "is empty"),
        ('{"id": "1", "title": 3}', 1, "'title' must be a string, not a number"),
        ('{"id": "1", "limit": "many"}', 1, "'limit' must be an integer"),
        ('{"id": "1", "limit": true}', 1, "'limit' must be an integer, not true"),
        ('{"id": "1", "limit": [3]}', 1, "'limit' must be an integer, not an array"),
        ('[{"id": "1"} {"id": "2"}]', 1, "expected ',' or ']'"),
        ('[{"id": "1"}, 3]', 1, "array items must be topic objects"),
        ('[{"id": "1"}]\n[]', 2, "unexpected text after the JSON array"),
        ('[\n{"id": "1"},\n', 3, "not closed"),
        ("", 1, "empty"),
        ("qid\tquery\n", 1, "no topics"),
        ("\t no id\n", 1, "empty topic id"),
    ],
)
def test_other_broken_shapes(text: str, line: int, words: str) -> None:
    err = error_of(text)
    assert err.line == line
    assert words in err.reason


def test_load_topics_reports_bad_utf8_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "t.tsv"
    bad.write_bytes("1\tcaf\u00e9\n2\tna\u00efve \xff\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(TopicFileError) as info:
        load_topics(bad)
    assert (info.value.line, info.value.column) == (2, 9)
    assert "not UTF-8" in info.value.reason
    with pytest.raises(TopicFileError) as info:
        load_topics(tmp_path / "nope.jsonl")
    assert info.value.line == 0 and "cannot read" in str(info.value)


def test_importing_topics_loads_no_heavy_library() -> None:
    code = (
        "import sys, citelens.topics; heavy = {'numpy', 'pydantic', 'yaml', 'pygls'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
