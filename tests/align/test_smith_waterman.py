"""Smith-Waterman: scores, tie-breaks and match blocks as alignment.md documents them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.align.match_chains import best_chain, longest_chain
from citelens.align.smith_waterman import SmithWatermanAligner, align_many, align_pair


def as_tuple(h):
    return (h.score, h.token_start, h.token_end, h.query_start, h.query_end, h.matches, list(h.match_blocks))


def test_match_block_example():
    a = SmithWatermanAligner(return_match_blocks=True).align([1, 2, 3, 4, 5], [1, 2, 9, 9, 3, 4, 5, 7])
    assert (a.score, a.token_start, a.token_end, a.matches) == (8, 0, 7, 5)
    assert a.match_blocks == [(0, 2), (4, 7)]
    assert (a.query_start, a.query_end) == (0, 5)


def test_blocks_only_in_block_mode():
    assert SmithWatermanAligner().align([1, 2, 3, 4, 5], [1, 2, 9, 9, 3, 4, 5, 7]).match_blocks == []


def test_zero_score_gives_an_empty_alignment():
    a = SmithWatermanAligner().align([1, 2], [3, 4])
    assert (a.score, a.token_start, a.token_end, a.query_start, a.query_end, a.matches) == (0, 0, 0, 0, 0, 0)
    assert SmithWatermanAligner().align([], [1]).score == 0


def test_equal_scores_prefer_the_earlier_target_occurrence():
    hit = align_pair([7, 8], [7, 8, 0, 7, 8])
    assert (hit.score, hit.token_start, hit.token_end) == (4, 0, 2)


def test_a_gap_is_bridged_when_it_pays():
    # 1 2 | 9 | 1 2: two runs joined across one unmatched source token score 2+2-1+2+2 = 7.
    hit = align_pair([1, 2, 1, 2], [1, 2, 9, 1, 2])
    assert (hit.score, hit.matches, hit.token_start, hit.token_end) == (7, 4, 0, 5)


def test_equal_scores_prefer_more_matches():
    # Both end points score 4: "3 4" alone (2 matches) and "3 4 _ _ 5" with two skipped
    # answer tokens (3 matches). The one with more matches is reported.
    hit = align_pair([3, 4, 9, 9, 5], [3, 4, 5])
    assert (hit.score, hit.matches, hit.query_start, hit.query_end, hit.token_end) == (4, 3, 0, 5, 3)


def test_equal_scores_prefer_the_smaller_query_start():
    # The target word occurs twice in the query: both single matches score 2.
    hit = align_pair([5, 6, 5], [5])
    assert (hit.score, hit.query_start, hit.query_end) == (2, 0, 1)


def test_a_longer_target_span_wins_among_equal_starts():
    # With a free gap the alignment can run on without losing score; the end point with
    # the longer target span is preferred.
    hit = align_pair([1, 2], [1, 9, 2], gap=0, mismatch=-5)
    assert (hit.score, hit.token_start, hit.token_end, hit.matches) == (4, 0, 3, 2)


cite_right = pytest.importorskip("cite_right")
from cite_right.core.aligner_py import SmithWatermanAligner as RefAligner  # noqa: E402

_seq = st.lists(st.integers(1, 5), max_size=10)


@settings(max_examples=400, deadline=None)
@given(
    _seq,
    st.lists(_seq, min_size=1, max_size=4),
    st.sampled_from([-1, -1, 0, -2]),
    st.sampled_from([-1, -2, 0]),
    st.booleans(),
)
def test_vectorised_and_plain_aligners_equal_the_reference(query, targets, gap, mismatch, blocks):
    ref = RefAligner(2, mismatch, gap, return_match_blocks=blocks)
    expected = []
    for t in targets:
        a = ref.align(query, t)
        expected.append(
            (
                a.score,
                a.token_start,
                a.token_end,
                a.query_start,
                a.query_end,
                a.matches,
                [tuple(b) for b in a.match_blocks],
            )
        )
    assert [as_tuple(align_pair(query, t, 2, mismatch, gap, with_blocks=blocks)) for t in targets] == expected
    assert [as_tuple(h) for h in align_many(query, targets, 2, mismatch, gap, with_blocks=blocks)] == expected


@settings(max_examples=300, deadline=None)
@given(
    _seq.filter(bool),
    _seq,
    st.sampled_from([-1, 0, -2, -3]),
    st.sampled_from([-1, 0, -2]),
    st.sampled_from([1, 2, 3]),
)
def test_match_chains_give_the_full_programme_score(query, target, mismatch, gap, match):
    positions: dict[int, list[int]] = {}
    for i, t in enumerate(query):
        positions.setdefault(t, []).append(i)
    hit = align_pair(query, target, match, mismatch, gap)
    assert best_chain(positions, target, match, mismatch, gap, max_pairs=10_000) == (hit.score, hit.matches)


@settings(max_examples=300, deadline=None)
@given(_seq.filter(bool), _seq, st.sampled_from([-1, 0, -2]), st.sampled_from([-1, 0, -2]))
def test_longest_chain_bounds_the_matches(query, target, mismatch, gap):
    positions: dict[int, list[int]] = {}
    for i, t in enumerate(query):
        positions.setdefault(t, []).append(i)
    longest = longest_chain(positions, target)
    hit = align_pair(query, target, 2, mismatch, gap)
    assert hit.matches <= longest and hit.score <= 2 * longest
    assert align_pair(query, target, 2, 0, 0).matches == longest  # free gaps reach it
