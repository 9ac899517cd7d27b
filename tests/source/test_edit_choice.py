"""The fix combiner chooses exactly what pairwise comparison would, however many fixes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citelens.source.edit_choice import choose_compatible
from citelens.source.edits import Edit
from tests.helpers.edit_choice_oracle import pairwise_choice

_edit = st.tuples(st.integers(0, 60), st.integers(0, 8)).map(lambda t: Edit(t[0], t[0] + t[1], "x"))
_groups = st.lists(st.lists(_edit, min_size=0, max_size=3).map(tuple), max_size=40)


@given(_groups)
def test_same_choice_as_pairwise_comparison(groups: list[tuple[Edit, ...]]) -> None:
    assert choose_compatible(groups) == pairwise_choice(groups)


def test_first_fix_wins_a_conflict_and_touching_edits_conflict() -> None:
    groups = [
        (Edit(10, 20, ""),),
        (Edit(15, 16, "a"),),  # inside the first
        (Edit(20, 20, "b"),),  # an insertion at the first one's end: either side, refused
        (Edit(21, 25, "c"), Edit(40, 41, "d")),
        (Edit(30, 30, "e"),),
        (Edit(41, 50, "f"),),  # touches the second edit of group 3
    ]
    assert choose_compatible(groups) == [0, 3, 4]


def test_many_independent_fixes_are_all_chosen() -> None:
    groups = [(Edit(i * 10, i * 10 + 3, "z"),) for i in range(20_000)]
    assert choose_compatible(reversed(groups)) == list(range(20_000))
