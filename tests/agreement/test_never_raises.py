"""Whatever a file holds, checking it never raises and every finding has a real span.

Story: someone opens a half-written, truncated, mis-encoded or machine-mangled run file
in the editor. CiteLens answers with findings on the exact bytes, never a traceback;
and the pathological inputs (invalid UTF-8, NUL, 10,000-deep nesting, duplicate keys,
NaN/Infinity, 1e400, a 5000-digit integer) each get one clear finding where they are.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citelens.check import Checker
from citelens.specs import builtin_specs

SPECS = sorted(builtin_specs())
CHECKERS = {s: Checker(builtin_specs()[s]) for s in SPECS}
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_all(data: bytes) -> None:
    for spec_id, checker in CHECKERS.items():
        result = checker.check_bytes(data, f"<{spec_id}>")
        n = len(result.line_index.text)
        for f in result.findings:
            assert 0 <= f.start < f.end, (spec_id, f)
            assert f.end <= n + 1, (spec_id, f, n)
            assert f.severity in ("error", "warning", "info")
            assert f.message


# --- arbitrary input --------------------------------------------------------------


@FAST
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data):
    _check_all(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=25,
)


@FAST
@given(st.lists(json_values, min_size=1, max_size=4), st.sampled_from(["jsonl", "array", "pretty"]))
def test_arbitrary_json_values(values, layout):
    if layout == "jsonl":
        text = "\n".join(json.dumps(v) for v in values)
    elif layout == "array":
        text = json.dumps(values, indent=1)
    else:
        text = json.dumps(values[0], indent=2)
    _check_all(text.encode())


_ids = st.sampled_from(
    [
        "shard_00459_61697",
        "msmarco_v2.1_doc_16_1041913392#3_1268938142",
        "5f91a162-7a1e-4e5e-af0e-6b1bab774964_1",
        "Leaf",
        "",
        "x#1",
    ]
)
_scalars = st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False) | st.text(max_size=6)
_citations = st.one_of(
    st.none(),
    _scalars,
    st.lists(_ids, max_size=5),
    st.lists(st.integers(-2, 6), max_size=5),
    st.lists(_scalars, max_size=4),
    st.dictionaries(_ids, _scalars, max_size=4),
)
_sentence = st.one_of(
    _scalars,
    st.fixed_dictionaries(
        {},
        optional={
            "text": st.one_of(st.text(max_size=30), _scalars),
            "citations": _citations,
            "metadata": st.one_of(_scalars, st.just({})),
        },
    ),
)
_metadata = st.one_of(
    _scalars,
    st.fixed_dictionaries(
        {},
        optional={
            k: st.one_of(_scalars, st.text(max_size=30), _ids)
            for k in (
                "team_id",
                "run_id",
                "topic_id",
                "narrative_id",
                "narrative",
                "run_desc",
                "type",
                "use_starter_kit",
                "task",
                "request_id",
                "limit",
            )
        },
    ),
)
reports = st.fixed_dictionaries(
    {},
    optional={
        "metadata": _metadata,
        "responses": st.one_of(_scalars, st.lists(_sentence, max_size=4)),
        "answer": st.one_of(_scalars, st.lists(_sentence, max_size=4)),
        "references": st.one_of(_scalars, st.lists(st.one_of(_ids, _scalars), max_size=5)),
        "documents": st.one_of(
            _scalars,
            st.dictionaries(
                _ids,
                st.one_of(_scalars, st.fixed_dictionaries({}, optional={"id": _ids, "text": _scalars})),
                max_size=2,
            ),
        ),
        "ranking": st.one_of(
            _scalars,
            st.lists(
                st.dictionaries(st.sampled_from(["doc_id", "rank", "query_id"]), _scalars, max_size=3),
                max_size=2,
            ),
        ),
        # the flat 2024 layout
        "topic": st.text(max_size=10),
        "response_length": _scalars,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(reports, min_size=1, max_size=5))
def test_arbitrary_report_like_dicts(values):
    _check_all(("\n".join(json.dumps(v) for v in values) + "\n").encode())


# --- pathological inputs: one clear finding, at the right place -------------------

REPORT = (
    '{"metadata": {"team_id": "t", "run_id": "r", "topic_id": "1"}, '
    '"responses": [{"text": "TEXT", "citations": {"5f91a162-7a1e-4e5e-af0e-6b1bab774964_1": SCORE}}]}'
)


def _report(text: str = "a", score: str = "0.5") -> str:
    return REPORT.replace("TEXT", text).replace("SCORE", score)


def _one(data: bytes, code: str):
    for spec_id, checker in CHECKERS.items():
        findings = [f for f in checker.check_bytes(data).findings if f.code == code]
        assert findings, (spec_id, code)
        assert all(f.severity == "error" for f in findings)
    return Checker(builtin_specs()["ragtime26"]).check_bytes(data).findings


@pytest.mark.parametrize("bad", [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf0\x9f\x98"])
def test_invalid_utf8_is_an_encoding_error_on_the_bad_bytes(bad):
    good = _report("ab").encode()
    data = good.replace(b'"ab"', b'"a' + bad + b'b"')
    at = data.index(bad)
    findings = _one(data, "encoding")
    enc = [f for f in findings if f.code == "encoding"]
    assert [f.start for f in enc][0] == len(data[:at].decode())  # code points before it
    assert "not valid UTF-8" in enc[0].message


def test_nul_byte_is_named_where_it_is():
    text = _report("a\x00b")
    findings = _one(text.encode(), "encoding")
    nul = text.index("\x00")
    assert any(f.code == "encoding" and f.start == nul and "NUL" in f.message for f in findings)
    assert any(f.code == "json_syntax" and f.start == nul for f in findings)


def test_ten_thousand_deep_nesting_is_a_syntax_error_not_a_recursion_error():
    text = _report(score="[" * 10000 + "]" * 10000)
    findings = _one(text.encode(), "json_syntax")
    deep = [f for f in findings if f.code == "json_syntax"]
    assert len(deep) == 1 and "nesting deeper" in deep[0].message
    assert text[deep[0].start] == "[" and deep[0].start > text.index("[" * 100)


def test_ten_thousand_deep_nesting_as_the_whole_file():
    text = "[" * 10000 + "]" * 10000
    for checker in CHECKERS.values():
        findings = checker.check_text(text).findings
        assert findings and all(0 <= f.start < f.end <= len(text) + 1 for f in findings)
        assert any(f.severity == "error" for f in findings)


def test_duplicate_keys_are_named_on_the_key():
    text = _report().replace('"team_id": "t"', '"team_id": "t", "team_id": "u"')
    findings = _one(text.encode(), "duplicate_key")
    dup = [f for f in findings if f.code == "duplicate_key"][0]
    assert text[dup.start : dup.end] == '"team_id"' and "team_id" in dup.message


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_syntax_errors_on_the_token(token):
    text = _report(score=token)
    findings = _one(text.encode(), "json_syntax")
    f = [f for f in findings if f.code == "json_syntax"][0]
    assert text[f.start : f.end] == token


def test_1e400_is_named_as_too_large():
    text = _report(score="1e400")
    f = [f for f in _one(text.encode(), "json_syntax") if f.code == "json_syntax"][0]
    assert text[f.start : f.end] == "1e400" and "too large" in f.message


def test_5000_digit_integer_is_named_as_too_large():
    text = _report(score="9" * 5000)
    f = [f for f in _one(text.encode(), "json_syntax") if f.code == "json_syntax"][0]
    assert f.start == text.index("9" * 5000) and "too large" in f.message


def test_the_other_reports_of_the_file_are_still_checked():
    bad = _report(score="NaN")
    good_but_long = _report().replace('"run_id": "r"', '"run_id": "' + "r" * 30 + '"')
    text = bad + "\n" + "{broken\n" + good_but_long + "\n"
    result = CHECKERS["ragtime26"].check_text(text)
    lines = {result.line_index.position(f.start)[0] for f in result.findings}
    assert {0, 1, 2} <= lines
    assert any(
        f.code == "run_id_length" and result.line_index.position(f.start)[0] == 2 for f in result.findings
    )
