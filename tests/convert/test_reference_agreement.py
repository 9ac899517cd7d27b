"""`submission_dict(convert(report, S), S)` equals autojudge-base 1.0.0's, as a JSON value.

For every built-in spec the two libraries share, on the sample runs and on seeded random
reports in all three citation shapes; plus custom specs that exercise what no shared spec
does (truncation, `cited_only` with rag24 output, no references at all).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from citelens.convert import convert, convert_value, report_to_submission_dict, submission_dict
from citelens.convert.flat import flat_to_nested
from citelens.models import Report
from citelens.specs import builtin_specs, get_spec
from citelens.specs.loader import parse_spec_text
from tests.helpers.reference_oracle import SHARED_SPECS, reference, reference_spec, sample_lines
from tests.helpers.report_factory import generate_reports

SAMPLES = [json.loads(line) for _, _, line in sample_lines()]
GENERATED = generate_reports(seed=424242, count=360)

CUSTOM = parse_spec_text(
    """
[specs.ragtime26-capped]
extends = "ragtime26"
smells = ["empty_answer", "blank_sentence", "duplicate_topics", "metadata_recommended", "length"]

[specs.rag26-cited-only]
extends = "rag26"
references_kind = "cited_only"
max_citations_per_sentence = 2
smells = ["empty_answer"]

[specs.kiddie-no-references]
extends = "kiddie"
references_kind = "none"
max_citations_per_sentence = 1
""",
    "custom.toml",
    base=builtin_specs(),
)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _loadable(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for value in values:
        try:
            reference().report.Report.model_validate(copy.deepcopy(value))
        except Exception:
            continue
        out.append(value)
    return out


VALUES = _loadable(SAMPLES + GENERATED)


def ours(value: dict[str, Any], spec: Any) -> Any:
    report = Report.model_validate(copy.deepcopy(value))
    return _json(submission_dict(convert(report, spec), spec))


def theirs(value: dict[str, Any], spec: Any) -> Any:
    ref = reference().report
    report = ref.Report.model_validate(copy.deepcopy(value))
    return _json(ref.submission_dict(ref.convert(report, spec), spec))


def _disagreements(values: list[dict[str, Any]], our_spec: Any, their_spec: Any) -> list[int]:
    return [i for i, value in enumerate(values) if ours(value, our_spec) != theirs(value, their_spec)]


def test_almost_every_generated_report_is_loadable() -> None:
    assert len(VALUES) >= len(SAMPLES) - 2 + 350  # the two flat rag24 lines are not loadable as such


@pytest.mark.parametrize("spec", SHARED_SPECS)
def test_shared_specs_agree_on_samples_and_generated_reports(spec: str) -> None:
    assert _disagreements(VALUES, spec, spec) == []


@pytest.mark.parametrize("spec", sorted(CUSTOM))
def test_custom_specs_agree(spec: str) -> None:
    assert _disagreements(VALUES, CUSTOM[spec], reference_spec(CUSTOM[spec])) == []


@pytest.mark.parametrize("spec", SHARED_SPECS)
def test_spec_objects_and_ids_give_the_same_result(spec: str) -> None:
    value = VALUES[0]
    assert ours(value, spec) == ours(value, get_spec(spec)) == theirs(value, reference_spec(get_spec(spec)))


@pytest.mark.parametrize("spec", SHARED_SPECS)
def test_export_helper_and_dict_entry_point_agree(spec: str) -> None:
    export = reference().report_export.report_to_submission_dict
    for value in VALUES[::7]:
        expected = _json(export(reference().report.Report.model_validate(copy.deepcopy(value)), spec))
        assert _json(report_to_submission_dict(Report.model_validate(copy.deepcopy(value)), spec)) == expected
        assert _json(convert_value(copy.deepcopy(value), None, spec)[0]) == expected


@pytest.mark.parametrize("spec", SHARED_SPECS)
def test_flat_rag24_lines_agree_once_wrapped(spec: str) -> None:
    """The reference cannot read the flat layout; give it the wrapped value we read."""
    for value in SAMPLES:
        if "metadata" in value:
            continue
        wrapped = flat_to_nested(value, get_spec("rag24"))
        wrapped["metadata"]["team_id"] = ""
        assert _json(convert_value(value, "rag24", spec)[0]) == theirs(wrapped, spec)


def test_model_methods_agree() -> None:
    ref = reference().report
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for value in VALUES[::5]:
            mine = Report.model_validate(copy.deepcopy(value))
            other = ref.Report.model_validate(copy.deepcopy(value))
            assert mine.to_rag().model_dump(mode="json") == other.to_rag().model_dump(mode="json")
            assert mine.to_ragtime().model_dump(mode="json") == other.to_ragtime().model_dump(mode="json")
            assert mine.convert("rag26").model_dump(mode="json") == other.convert("rag26").model_dump(
                mode="json"
            )
