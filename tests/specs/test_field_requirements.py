"""What a spec asks of a metadata field, read off the spec's data for every built-in spec."""

from __future__ import annotations

import pytest

from citelens.check.track_spec import TrackSpec
from citelens.specs import builtin_specs, resolve_spec
from citelens.specs.field_requirements import field_requirements


@pytest.mark.parametrize("spec_id", sorted(builtin_specs()))
def test_each_builtin_spec_describes_its_fields(spec_id):
    spec = resolve_spec(spec_id)
    assert spec is not None
    for name in spec.mandatory_metadata:
        assert any(r.startswith("required") for r in field_requirements(spec, name)), name
    for name in spec.recommended_metadata:
        assert any(r.startswith("recommended") for r in field_requirements(spec, name)), name
    for name, allowed in spec.metadata_values.items():
        (line,) = [r for r in field_requirements(spec, name) if r.startswith("one of")]
        assert all(repr(v) in line or str(v) in line for v in allowed)
    for name in spec.same_on_every_line:
        assert "the same in every report of the run" in field_requirements(spec, name)
    if spec.run_id_max_len is not None:
        assert f"at most {spec.run_id_max_len} characters" in field_requirements(spec, "run_id")
    assert any("topic id" in r for r in field_requirements(spec, spec.topic_id_field))
    unlisted = field_requirements(spec, "surely_not_a_field")
    assert unlisted == (
        ["not allowed: only the metadata fields the track lists may appear"]
        if spec.forbid_extra_metadata
        else ["not checked by this track (any value is accepted)"]
    )


def test_a_new_spec_needs_no_new_code():
    spec = TrackSpec.from_dict(
        {
            "track": "demo",
            "task": "generation",
            "sentence_type": ["rag24"],
            "sentences_key": "answer",
            "topic_id_field": "topic_id",
            "mandatory_metadata": ["run_id"],
            "metadata_values": {"mode": ["fast", "slow"]},
            "require_exact_narrative": False,
        }
    )
    assert field_requirements(spec, "mode") == ["one of: 'fast', 'slow'"]
    assert not any("exact copy" in r for r in field_requirements(spec, "narrative"))
