"""A finding's copies with another span or severity (built through its slots, for speed)
are the findings the dataclass itself would build: every field carried over."""

from __future__ import annotations

from citelens.check import finding as finding_module
from citelens.check.finding import Finding, Target, placed, reported


def _full() -> Finding:
    return Finding(
        "citation_count",
        "warning",
        "too many citations",
        "/answer/2/citations",
        Target.KEY,
        40,
        52,
        "topic-7",
        None,
        {"related_at": (("here", 1, 2),)},
    )


def _as_built(f: Finding, **changes: object) -> Finding:
    fields = {name: getattr(f, name) for name in finding_module._FIELDS}
    return Finding(**{**fields, **changes})


def test_the_slots_are_set_directly() -> None:
    # a field added to Finding without updating _FIELDS would silently take the slow path
    assert finding_module._SET and Finding.__slots__ == finding_module._FIELDS


def test_copies_carry_every_field() -> None:
    f = _full()
    for copy, want in (
        (f.with_span(3, 9), _as_built(f, start=3, end=9)),
        (f.with_span(5, 5), _as_built(f, start=5, end=6)),  # never empty
        (f.with_severity("info"), _as_built(f, severity="info")),
        (placed(f, 100), _as_built(f, start=140, end=152)),
    ):
        assert type(copy) is Finding
        assert all(getattr(copy, n) == getattr(want, n) for n in finding_module._FIELDS)
        assert copy.data is f.data and copy.related == want.related


def test_a_rules_new_finding_is_the_dataclass_s() -> None:
    data = {"count": 3}
    got = reported("citation_count", "too many", "/answer/0", Target.KEY, "t1", data)
    want = Finding("citation_count", "error", "too many", "/answer/0", Target.KEY, topic_id="t1", data=data)
    assert type(got) is Finding and got.data is data
    assert all(getattr(got, n) == getattr(want, n) for n in finding_module._FIELDS)
