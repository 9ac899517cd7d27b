"""Property: for any loadable report, conversion agrees with the reference library.

Hypothesis builds citation values the seeded generator does not reach: unicode ids,
huge and tiny confidences, infinities, long runs of ties, many duplicates.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citelens.convert import convert, submission_dict
from citelens.models import Report
from tests.helpers.reference_oracle import SHARED_SPECS, reference

_ids = st.text(min_size=1, max_size=6)
_score = st.floats(allow_nan=False) | st.integers(min_value=-(10**6), max_value=10**6)
_citations = {
    "neuclir": st.lists(_ids, max_size=6),
    "ragtime": st.dictionaries(_ids, _score, max_size=6),
    "rag24": st.lists(st.integers(min_value=0, max_value=8), max_size=6),
}


@st.composite
def reports(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(st.sampled_from(sorted(_citations)))
    sentences = draw(
        st.lists(
            st.fixed_dictionaries(
                {"text": st.text(max_size=20)}, optional={"citations": st.none() | _citations[shape]}
            ),
            max_size=5,
        )
    )
    value: dict[str, Any] = {
        "metadata": {"team_id": "t", "run_id": "r", "topic_id": draw(_ids)},
        draw(st.sampled_from(["responses", "answer"])): sentences,
    }
    references = draw(st.none() | st.lists(_ids, max_size=8))
    if references is not None:
        value["references"] = references
    return value


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=reports(), spec=st.sampled_from(SHARED_SPECS))
def test_any_report_converts_like_the_reference(value: dict[str, Any], spec: str) -> None:
    ref = reference().report
    try:
        theirs = ref.Report.model_validate(copy.deepcopy(value))
    except Exception as exc:
        try:
            Report.model_validate(copy.deepcopy(value))
        except Exception as ours_exc:
            assert type(ours_exc) is type(exc)
            return
        raise AssertionError("the reference refused a report we loaded") from exc
    ours = Report.model_validate(copy.deepcopy(value))
    expected = _json(ref.submission_dict(ref.convert(theirs, spec), spec))
    got = _json(submission_dict(convert(ours, spec), spec))
    assert got == expected
