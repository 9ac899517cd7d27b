"""What reading a run file reports before any rule: files with no reports, files that are
not runs, nesting the reference cannot load, lone surrogates, and JSON's own type names."""

from __future__ import annotations

import codecs
import re

import pytest

from citelens.check import Checker
from citelens.source.json_scan import MAX_DEPTH
from citelens.specs import builtin_specs

SPECS = sorted(builtin_specs())
GOOD = (
    '{"metadata":{"team_id":"t","narrative_id":"rag2026-0","narrative":"How do bees make honey?",'
    '"run_id":"my-run","run_desc":"BM25 + LLM"},"references":["shard_00459_61697"],'
    '"answer":[{"text":"Bees make honey from nectar.","citations":[0]}]}'
)


def _check(data: bytes | str, spec: str | None = "rag26", *, workers: int = 1):
    checker = Checker(builtin_specs()[spec] if spec else None, workers=workers)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return checker.check_bytes(raw, "run.jsonl")


@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \r\n\t\n", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("spec", [None, *SPECS])
def test_an_empty_run_is_an_error_under_every_spec(data, spec):
    result = _check(data, spec)
    assert [(f.code, f.severity) for f in result.findings] == [("json_syntax", "error")]
    assert "holds no reports" in result.findings[0].message
    assert result.count("error") == 1


def _nested(depth: int) -> str:
    return GOOD[:-1] + ',"extra_key":' + "[" * depth + "]" * depth + "}"


def test_nesting_the_reference_cannot_load_is_an_error_on_the_line():
    from tests.helpers.agreement_reference import load_line

    for depth in (990, 1500):  # RecursionError in the reference (its CLI fails from about 985)
        with pytest.raises(RecursionError):
            load_line(_nested(depth))
    for depth in (MAX_DEPTH, 700, 985, 990, 1500):  # one more level: the report object
        result = _check(_nested(depth) + "\n" + GOOD + "\n")
        deep = [f for f in result.findings if f.code == "json_syntax"]
        assert len(deep) == 1 and f"nesting deeper than {MAX_DEPTH} levels" in deep[0].message
        assert result.line_index.position(deep[0].start)[0] == 0
        assert result.reports == 2


def test_nesting_within_the_limit_is_read_as_usual():
    result = _check(_nested(MAX_DEPTH - 1))
    assert result.findings == []


def test_a_deep_forked_check_finds_the_same_nesting_error():
    text = "".join((_nested(990) if i % 500 == 7 else GOOD) + "\n" for i in range(2500))
    single = [f.start for f in _check(text).findings if f.code == "json_syntax"]
    forked = [f.start for f in _check(text, workers=2).findings if f.code == "json_syntax"]
    assert single == forked and len(single) == 5


def test_a_too_deep_first_line_does_not_turn_the_file_into_an_array():
    text = "[" * 1500 + "]" * 1500 + "\n" + GOOD + "\n"
    result = _check(text)
    assert [(f.code, result.line_index.position(f.start)[0]) for f in result.findings] == [("json_syntax", 0)]
    assert "nesting deeper" in result.findings[0].message and result.reports == 2
    assert not any("not closed" in f.message for f in result.findings)


_PYTHON_NAMES = re.compile(r"\b(int|str|bool|float|NoneType|dict|True|False|None)\b")


def test_messages_name_json_types_never_python_ones():
    lines = [
        "1",
        '"x"',
        "true",
        "null",
        "[1]",
        "1.5",
        GOOD.replace('"run_id":"my-run"', '"run_id":["my-run"]').replace('"team_id":"t"', '"team_id":true'),
        GOOD.replace('"citations":[0]', '"citations":[true, null, 0]'),
        GOOD.replace('"citations":[0]', '"citations":[0, true]'),
    ]
    found = _check("\n".join(lines) + "\n").findings
    messages = [f.message for f in found]
    assert [m.rsplit("not ", 1)[1] for m in messages[:6]] == [
        "a number",
        "a string",
        "a boolean",
        "null",
        "an array",
        "a number",
    ]
    assert any("run_id must be a string, not an array" in m for m in messages)
    assert any("team_id must be a string, not true" in m for m in messages)
    assert any("reference index true," in m for m in messages)
    assert any("this one is an array of booleans and nulls and numbers" in m for m in messages)
    ragtime = GOOD.replace('"citations":[0]', '"citations":{"shard_00459_61697": true, "shard_1_2": null}')
    scores = [f.message for f in _check(ragtime + "\n", "ragtime26").findings if f.code == "citation_score"]
    assert len(scores) == 2 and "score true;" in scores[0] and "score null;" in scores[1]
    for message in messages + scores:
        assert not _PYTHON_NAMES.search(message), message


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_run_is_one_finding_saying_so(codec):
    data = (GOOD + "\n" + GOOD + "\n").encode(codec)
    result = _check(data)
    assert len(result.findings) == 1 and result.reports == 0
    f = result.findings[0]
    assert f.code == "encoding" and f.severity == "error"
    assert codec.upper().split("-")[0] + "-" + codec.split("-")[1][:2] in f.message
    assert "saved as UTF-8" in f.message
    if codec in ("utf-16", "utf-32"):
        assert data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF32_LE))


def test_a_trec_run_file_given_as_a_run_is_one_finding():
    trec = "".join(
        f"{q} Q0 shard_1_{r} {r} {20 - r / 10:.2f} my-run\n" for q in range(30) for r in range(1, 11)
    )
    result = _check(trec)
    assert len(result.findings) == 1 and result.reports == 0
    assert "a TREC run file" in result.findings[0].message
    assert "JSON reports" in result.findings[0].message


def test_a_tsv_file_given_as_a_run_is_one_finding():
    tsv = "".join(f"rag2026-{n}\tHow do bees make honey, part {n}?\n" for n in range(300))
    result = _check(tsv)
    assert len(result.findings) == 1 and result.reports == 0
    f = result.findings[0]
    assert f.code == "json_syntax" and "tab-separated table (TSV, 2 columns)" in f.message
    assert (f.start, f.end) == (0, tsv.index("\n"))


def test_broken_json_lines_are_still_one_finding_per_line():
    result = _check("not json\nalso not json\n")
    assert [f.code for f in result.findings] == ["json_syntax", "json_syntax"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_lone_surrogate_is_an_encoding_error_on_its_string(workers):
    bad_value = GOOD.replace("Bees make honey from nectar.", "Bees make honey \\ud800 from nectar.")
    bad_key = GOOD.replace('"run_desc"', '"run\\udfffdesc"')
    pair = GOOD.replace("from nectar.", "from nectar \\ud83d\\udc1d.")  # an escaped emoji is fine
    text = "".join(line + "\n" for line in [bad_value, bad_key, pair] * (700 if workers > 1 else 1))
    result = _check(text, workers=workers)
    enc = [f for f in result.findings if f.code == "encoding"]
    assert len(enc) == (1400 if workers > 1 else 2)
    assert text[enc[0].start : enc[0].end] == '"Bees make honey \\ud800 from nectar."'
    assert text[enc[1].start : enc[1].end] == '"run\\udfffdesc"'
    assert "\\ud800" in enc[0].message and "no UTF-8 writer can write it" in enc[0].message
    assert all(result.line_index.position(f.start)[0] % 3 != 2 for f in enc)
