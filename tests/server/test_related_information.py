"""Related information on diagnostics: the engine's related places, converted to the
client's encoding (the run holds emoji and CJK before them)."""

from __future__ import annotations

import pytest

from citelens.source.line_index import LineIndex
from tests.helpers.lsp_session import ONE_PER_ENCODING, diagnostics, open_document
from tests.helpers.related_runs import first_topic_span, related_run


@pytest.mark.parametrize("client", ONE_PER_ENCODING, indirect=True)
async def test_duplicate_topic_and_index_out_of_range_point_at_their_places(client, workspace):
    text = related_run()
    path = workspace / "related.jsonl"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path, text)
    got = await diagnostics(client, client.profile, uri, 1)
    index, encoding = LineIndex(text), client.profile.encoding

    def lsp(offset: int) -> tuple[int, int]:
        return index.position(offset, encoding)

    (dup,) = [d for d in got if d.code == "duplicate_topics"]
    (info,) = dup.related_information
    start, end = first_topic_span(text)
    assert info.location.uri == uri
    assert (info.location.range.start.line, info.location.range.start.character) == lsp(start)
    assert (info.location.range.end.line, info.location.range.end.character) == lsp(end)
    assert "report 1" in info.message

    (bad_index,) = [d for d in got if d.code == "reference_index"]
    (listed,) = bad_index.related_information
    refs_start = text.index('["msmarco', text.index("\n") + 1)
    assert (listed.location.range.start.line, listed.location.range.start.character) == lsp(refs_start)
    assert listed.location.range.start.line == bad_index.range.start.line == 1
    assert all(
        not d.related_information for d in got if d.code not in ("duplicate_topics", "reference_index")
    )


def test_a_cached_diagnostic_follows_its_related_place_on_another_line(tmp_path):
    """An edit on the first report (not on the duplicate's line) moves the related place:
    the duplicate's diagnostic must not come from the cache unchanged."""
    import json

    from citelens.session import TextChange, Workspace
    from citelens_server.lsp.diagnostics import DiagnosticsJson

    text = related_run()
    doc = Workspace((tmp_path,), init_options={"spec": "rag25"}).open(
        (tmp_path / "r.jsonl").as_uri(), text, 1
    )
    rendered = DiagnosticsJson()

    def related_start() -> dict:
        diags = json.loads(str(rendered.render_result(doc.result, doc.line_index, "utf-16", doc.uri)))
        (dup,) = [d for d in diags if d["code"] == "duplicate_topics"]
        return dup["relatedInformation"][0]["location"]["range"]["start"]

    before = related_start()
    at = text.index('"run_id": "') + len('"run_id": "')
    doc.apply_changes([TextChange(at, at, "🌊")], version=2)
    after = related_start()
    assert after == {"line": before["line"], "character": before["character"] + 2}  # one astral char: 2 units


def test_an_edit_after_the_related_place_keeps_the_linked_reports_diagnostics(tmp_path, monkeypatch):
    """Typing in the first report after the place the duplicate's diagnostic points at
    leaves that diagnostic as it was: the duplicate's findings stay the same list (the
    session's merge and the server's JSON of it are reused, not written again), and the
    JSON is still the fresh one; typing before the place moves it (the test above)."""
    import json

    from citelens.session import TextChange, Workspace
    from citelens_server.lsp import diagnostics

    text = related_run()
    doc = Workspace((tmp_path,), init_options={"spec": "rag25"}).open(
        (tmp_path / "r.jsonl").as_uri(), text, 1
    )
    rendered = diagnostics.DiagnosticsJson()
    rendered.render_result(doc.result, doc.line_index, "utf-16", doc.uri)
    duplicate = doc.result.relative[2]
    written: list[int] = []
    real = diagnostics._Writer.report
    monkeypatch.setattr(
        diagnostics._Writer,
        "report",
        lambda self, found, at, starts: written.append(at) or real(self, found, at, starts),
    )
    at = text.index("Rivers") + 1  # in report 0's answer, after its topic
    doc.apply_changes([TextChange(at, at, "🌊")], version=2)
    after = json.loads(str(rendered.render_result(doc.result, doc.line_index, "utf-16", doc.uri)))
    assert doc.result.relative[2] is duplicate
    assert doc.result.starts[2] not in written  # the duplicate's JSON was not written again
    fresh = Workspace((tmp_path,), init_options={"spec": "rag25"}).open(
        (tmp_path / "fresh.jsonl").as_uri(), doc.text, 1
    )
    assert after == json.loads(
        str(diagnostics.DiagnosticsJson().render_result(fresh.result, fresh.line_index, "utf-16", doc.uri))
    )
