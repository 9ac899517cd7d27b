"""Property: any combination of topic-id names and types loads like the reference does."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.models import ReportMetaData
from tests.helpers.reference_oracle import reference

_id = st.none() | st.sampled_from(["1", "2", "rag2026-7", ""]) | st.integers(min_value=0, max_value=3)


def _outcome(model: Any, value: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "loaded", model.model_validate(value).model_dump(mode="json")
    except Exception as exc:
        return "raised", type(exc).__name__


@settings(max_examples=300, deadline=None)
@given(topic_id=_id, narrative_id=_id, request_id=_id, team_id=st.sampled_from(["t", 5]))
def test_topic_ids_sync_like_the_reference(
    topic_id: Any, narrative_id: Any, request_id: Any, team_id: Any
) -> None:
    value = {"team_id": team_id, "run_id": "r"}
    for key, item in (("topic_id", topic_id), ("narrative_id", narrative_id), ("request_id", request_id)):
        if item is not None:
            value[key] = item
    ours = _outcome(ReportMetaData, value)
    assert ours == _outcome(reference().report.ReportMetaData, value)
    if ours[0] == "loaded":
        dumped = ours[1]
        assert dumped["topic_id"] == dumped["narrative_id"] == dumped["request_id"]
