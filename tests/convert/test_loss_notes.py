"""`convert_value` says what the target could not take, pointing into the source value."""

from __future__ import annotations

import json
from typing import Any

import pytest

from citelens.convert import ConversionError, LossNote, convert_value
from citelens.convert.losses import LOSS_CODES
from citelens.specs import builtin_specs
from citelens.specs.loader import parse_spec_text
from tests.helpers.reference_oracle import SAMPLES, SHARED_SPECS
from tests.helpers.report_factory import generate_reports

MD = {"team_id": "t", "run_id": "r", "topic_id": "7"}
CAPPED = parse_spec_text(
    '[specs.capped]\nextends = "ragtime26"\nsmells = []\n', "c.toml", base=builtin_specs()
)["capped"]


def notes_of(value: dict[str, Any], source: Any, target: Any) -> dict[str, list[LossNote]]:
    _, notes = convert_value(value, source, target)
    by_code: dict[str, list[LossNote]] = {}
    for note in notes:
        by_code.setdefault(note.code, []).append(note)
    return by_code


def test_dropped_confidences_are_noted_per_sentence() -> None:
    value = {
        "metadata": MD,
        "responses": [{"text": "a", "citations": {"d1": 0.4, "d2": 0.9}}, {"text": "b", "citations": {}}],
        "references": ["d1", "d2"],
    }
    notes = notes_of(value, "ragtime26", "rag26")
    assert [n.pointer for n in notes["confidence_dropped"]] == ["/responses/0/citations"]
    assert notes["confidence_dropped"][0].kind == "loss"


def test_truncated_citations_name_the_dropped_ids() -> None:
    value = {"metadata": MD, "responses": [{"text": "a", "citations": {"a": 1, "b": 4, "c": 3, "d": 2}}]}
    out, notes = convert_value(value, None, CAPPED)
    assert out["responses"][0]["citations"] == {"b": 4.0, "c": 3.0, "d": 2.0}
    (note,) = [n for n in notes if n.code == "citations_truncated"]
    assert note.data["dropped"] == ["a"] and note.pointer == "/responses/0/citations"


def test_out_of_range_positions_and_duplicates_are_noted() -> None:
    value = {"metadata": MD, "answer": [{"text": "a", "citations": [0, 0, 5]}], "references": ["d0"]}
    notes = notes_of(value, "rag26", "kiddie")
    assert notes["citation_out_of_range"][0].data["positions"] == [5]
    assert notes["citation_duplicate_merged"][0].pointer == "/answer/0/citations"


def test_metadata_keys_the_target_does_not_list_are_noted() -> None:
    value = {
        "metadata": {**MD, "narrative": "n", "prompt": "p", "type": "automatic"},
        "responses": [{"text": "a", "citations": []}],
    }
    notes = notes_of(value, None, "ragtime26")
    assert sorted(n.pointer for n in notes["metadata_dropped"]) == [
        "/metadata/narrative",
        "/metadata/prompt",
        "/metadata/type",
    ]
    assert "metadata_dropped" not in notes_of(value, None, "rag25") or [
        n.pointer for n in notes_of(value, None, "rag25")["metadata_dropped"]
    ] == ["/metadata/prompt"]


def test_topic_id_under_another_name_is_not_a_loss() -> None:
    value = {"metadata": {"team_id": "t", "run_id": "r", "narrative_id": 5}, "answer": [{"text": "a"}]}
    notes = notes_of(value, None, "ragtime26")
    assert "metadata_dropped" not in notes
    assert notes["id_stringified"][0].pointer == "/metadata/narrative_id"


def test_references_dropped_added_and_merged() -> None:
    value = {"metadata": MD, "responses": [{"text": "a", "citations": ["d3"]}], "references": ["d1", "d1"]}
    to_cited_only = notes_of(value, None, "ragtime25")
    assert to_cited_only["references_dropped"][0].data["ids"] == ["d1"]
    assert to_cited_only["references_duplicate_merged"]
    assert notes_of(value, None, "rag26")["references_added"][0].data["ids"] == ["d3"]


def test_other_top_level_and_sentence_keys_are_noted() -> None:
    value = {
        "metadata": MD,
        "responses": [{"text": "a", "citations": ["d"], "evaldata": {"x": 1}}],
        "documents": {"d": {"id": "d", "text": "t"}},
        "evaldata": {"y": 2},
    }
    notes = notes_of(value, None, "kiddie")
    assert sorted(n.pointer for n in notes["field_dropped"]) == ["/documents", "/evaldata"]
    assert notes["sentence_field_dropped"][0].data["keys"] == ["evaldata"]


def test_missing_required_metadata_is_a_gap() -> None:
    value = {"metadata": MD, "responses": [{"text": "a", "citations": ["d"]}]}
    gaps = notes_of(value, None, "dragun25")["metadata_unfilled"]
    assert {n.data["key"] for n in gaps} == {"type", "use_starter_kit"} and gaps[0].kind == "gap"


def test_unloadable_values_raise_conversion_error() -> None:
    with pytest.raises(ConversionError):
        convert_value({"metadata": MD}, None, "rag26")
    with pytest.raises(ConversionError):
        convert_value(["not", "an", "object"], None, "rag26")  # type: ignore[arg-type]


@pytest.mark.parametrize("target", SHARED_SPECS)
def test_every_note_has_a_known_code_and_a_pointer_into_the_source(target: str) -> None:
    values = generate_reports(seed=3, count=90)
    values += [json.loads(line) for line in (SAMPLES / "kiddie_run1.jsonl").read_text().splitlines()]
    for value in values:
        try:
            _, notes = convert_value(value, None, target)
        except ConversionError:
            continue
        for note in notes:
            assert note.code in LOSS_CODES
            node: Any = value
            for part in [p for p in note.pointer.split("/")[1:]]:
                node = (
                    node[int(part)]
                    if isinstance(node, list)
                    else node[part.replace("~1", "/").replace("~0", "~")]
                )
