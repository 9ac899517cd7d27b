"""The diagnostics JSON the server publishes after any edit is exactly the diagnostics of a
fresh check of the text (ranges in the client's encoding, severities, codes, messages,
documentation links, related places), although it reuses the JSON of unchanged reports
and of runs of them, and after an edit inside one report only that report's diagnostics
are written again."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citelens.check import Checker
from citelens.session import TextChange, Workspace
from citelens.session.catalog import docs_uri
from citelens.source.line_index import LineIndex
from citelens.specs import get_spec
from tests.helpers.session_runs import EDIT_BASES, EDIT_SNIPPETS, generated

SEVERITY = {"error": 1, "warning": 2, "info": 3}


def expected(text: str, spec: str, encoding: str, uri: str) -> list[dict]:
    """The diagnostics of a fresh check, built from the engine's positions."""
    index = LineIndex(text)

    def rng(start: int, end: int) -> dict:
        (l1, c1), (l2, c2) = index.position(start, encoding), index.position(end, encoding)  # type: ignore[arg-type]
        return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}

    out = []
    for f in Checker(get_spec(spec)).check_text(text, "run.jsonl").findings:
        d = {
            "range": rng(f.start, f.end),
            "severity": SEVERITY[f.severity],
            "code": f.code,
            "source": "citelens",
            "message": f.message,
            "data": {"code": f.code, "pointer": f.pointer},
        }
        href = docs_uri(f.code)
        if href:
            d["codeDescription"] = {"href": href}
        if f.related:
            d["relatedInformation"] = [
                {"location": {"uri": uri, "range": rng(r.start, r.end)}, "message": r.message}
                for r in f.related
            ]
        out.append(d)
    return out


change = st.tuples(st.floats(0, 1), st.integers(0, 40), st.sampled_from(EDIT_SNIPPETS))


@settings(
    max_examples=int(os.environ.get("CITELENS_SESSION_EXAMPLES", "150")) // 2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    base=st.sampled_from(sorted(EDIT_BASES)),
    encoding=st.sampled_from(["utf-16", "utf-8", "utf-32"]),
    edits=st.lists(change, min_size=1, max_size=6),
)
def test_rendered_diagnostics_after_edits_are_a_fresh_checks(base, encoding, edits):
    from citelens_server.lsp.diagnostics import DiagnosticsJson

    text, _ = EDIT_BASES[base]
    spec, uri = base[0], "file:///run.jsonl"
    doc = Workspace(cli={"spec": spec}).open(uri, text, version=0)
    rendered = DiagnosticsJson()
    assert json.loads(str(rendered.render_result(doc.result, doc.line_index, encoding, uri))) == expected(
        text, spec, encoding, uri
    )
    for version, (where, length, new) in enumerate(edits, start=1):
        start = int(where * len(doc.text))
        doc.apply_changes([TextChange(start, min(start + length, len(doc.text)), new)], version=version)
        got = json.loads(str(rendered.render_result(doc.result, doc.line_index, encoding, uri)))
        assert got == expected(doc.text, spec, encoding, uri)


@pytest.mark.parametrize("new", ["x", "😀", "中"])
def test_an_edit_inside_one_report_writes_that_reports_diagnostics_only(monkeypatch, new):
    from citelens_server.lsp import diagnostics

    text, _ = generated("rag25", 40, 3)
    uri = "file:///run.jsonl"
    doc = Workspace(cli={"spec": "rag25"}).open(uri, text, version=0)
    rendered = diagnostics.DiagnosticsJson()
    rendered.render_result(doc.result, doc.line_index, "utf-16", uri)
    written: list[int] = []
    real, real_report = diagnostics._Writer.__call__, diagnostics._Writer.report
    monkeypatch.setattr(
        diagnostics._Writer, "__call__", lambda self, f: written.append(f.start) or real(self, f)
    )
    monkeypatch.setattr(  # a report's findings, kept relative to it (most are written here)
        diagnostics._Writer,
        "report",
        lambda self, found, at, starts: (
            written.extend(at + f.start for f in found) or real_report(self, found, at, starts)
        ),
    )
    lines = LineIndex(text)
    with_findings = {lines.line_of(f.start) for f in doc.result.findings}
    line = next(n for n in range(5, 40) if '"text": "' in lines.line_text(n) and n in with_findings)
    at = lines.starts[line] + lines.line_text(line).index('"text": "') + len('"text": "')
    doc.apply_changes([TextChange(at, at, new)], version=1)
    out = str(rendered.render_result(doc.result, doc.line_index, "utf-16", uri))
    edited = {f.start for f in doc.result.findings if doc.line_index.line_of(f.start) == line}
    file_level = {
        f.start
        for f in doc.result.findings
        if f.code in ("duplicate_topics", "run_consistency", "missing_topics")
    }
    assert written and set(written) <= edited | file_level  # the other reports' JSON was kept
    assert json.loads(out) == expected(doc.text, "rag25", "utf-16", uri)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_edits_across_the_kept_pieces_of_a_long_run(seed):
    """More reports than one kept piece holds: edits that add and remove lines and reports,
    change a line's length or only its columns (an astral character for a BMP one)."""
    import random

    from citelens_server.lsp.diagnostics import CHUNK, DiagnosticsJson

    text, _ = generated("rag25", CHUNK * 2 + 20, seed)
    uri, rng = "file:///run.jsonl", random.Random(seed)
    doc = Workspace(cli={"spec": "rag25"}).open(uri, text, version=0)
    rendered = DiagnosticsJson()
    rendered.render_result(doc.result, doc.line_index, "utf-16", uri)
    for version in range(1, 25):
        lines = doc.line_index
        line = rng.randrange(lines.line_count - 1)
        at = lines.starts[line] + rng.randrange(max(len(lines.line_text(line)), 1))
        edit = rng.choice(
            [
                TextChange(at, at, "x"),
                TextChange(at, at + 1, "😀"),
                TextChange(
                    lines.starts[line], lines.starts[line], lines.line_text(line) + "\n"
                ),  # a copy: a duplicate
                TextChange(lines.starts[line], lines.starts[line + 1], ""),  # a report gone
                TextChange(at, at, "\n"),
            ]
        )
        doc.apply_changes([edit], version=version)
        got = json.loads(str(rendered.render_result(doc.result, doc.line_index, "utf-16", uri)))
        assert got == expected(doc.text, "rag25", "utf-16", uri), version


@pytest.mark.parametrize("seed", [4, 5])
def test_kept_pieces_follow_edits_at_their_edges_and_several_between_renders(seed):
    """The kept JSON of a piece is reused where no edit since the last render touched its
    lines (`LineIndex.edits_since`): edits at a piece's first character or joining it to
    the line before, several edits between two renders, more than an index remembers, and
    a text replaced whole (no history) all render as a fresh check."""
    import random

    from citelens.source.line_index import HISTORY
    from citelens_server.lsp.diagnostics import CHUNK, DiagnosticsJson

    text, _ = generated("rag25", CHUNK * 3 + 5, seed)
    uri, rng = "file:///run.jsonl", random.Random(seed)
    doc = Workspace(cli={"spec": "rag25"}).open(uri, text, version=0)
    rendered = DiagnosticsJson()
    rendered.render_result(doc.result, doc.line_index, "utf-16", uri)
    version = 0
    for round_ in range(12):
        for _ in range(rng.choice([1, 1, 2, 3, HISTORY + 2])):
            lines = doc.line_index
            edge = lines.starts[rng.choice([CHUNK, 2 * CHUNK])]
            version += 1
            edit = rng.choice(
                [
                    TextChange(edge, edge, "x"),  # at a piece's first character
                    TextChange(edge - 1, edge, ""),  # its line joined to the one before
                    TextChange(edge - 1, edge - 1, "y"),  # the last character of the piece before
                    TextChange(edge, edge + 1, "\U0001f600"),  # its columns, not its length in code points
                ]
            )
            doc.apply_changes([edit], version=version)
        if round_ == 6:  # the whole text again, as a client without ranges sends it
            doc.apply_changes([TextChange(None, None, doc.text)], version=version)
        got = json.loads(str(rendered.render_result(doc.result, doc.line_index, "utf-16", uri)))
        assert got == expected(doc.text, "rag25", "utf-16", uri), version


@pytest.mark.parametrize("pieces", [[], [b"1"], [b"1", b"", b"2,3", b"4"]])
def test_a_json_array_in_pieces_is_one_array(pieces):
    from citelens_server.lsp.diagnostics import JsonArray

    array = JsonArray(pieces)
    assert json.loads(b"".join(array.parts)) == json.loads(str(array)) == json.loads(f"{array}")
    assert json.loads(str(array)) == [int(n) for p in pieces for n in p.decode().split(",") if n]
