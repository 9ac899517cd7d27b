"""Smith-Waterman local alignment of answer tokens (query) against passage tokens (target).

Scoring is linear: +match, mismatch, gap. Every cell carries the path's match count,
token start and query start; ties between moves prefer more matches, then the smaller
token start, then the smaller query start, then diagonal > up > left. The reported
end cell is the best by (score, matches, smaller token start, longer target span,
smaller query start, smaller column, smaller row).

Two implementations give identical results:

* ``align_pair`` - the plain dynamic programme, used for tiny inputs and as the
  readable definition;
* ``align_many`` - many passages in one numpy pass. Each cell's (score, matches,
  -token_start, -query_start) is packed into one int64 so that "the better move" is
  ``max``; the left moves of a row become one cumulative maximum, and passages are laid
  side by side with a reset column between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from citelens.align.models import Alignment

#: token ids: a list, or a slice of a prepared corpus's int32 token array
Tokens: TypeAlias = "Sequence[int] | npt.NDArray[np.int32]"
#: (score, token_start, token_end, query_start, query_end, matches), one entry per target
HitArrays: TypeAlias = "tuple[npt.NDArray[np.int64], ...]"
#: the match blocks of each target, when asked for
TargetBlocks: TypeAlias = list[list[tuple[int, int]]]

STOP, DIAGONAL, UP, LEFT = 0, 1, 2, 3

_INT64_SAFE = 1 << 62
_MAX_CELLS = 2_000_000  # per vectorised pass; bounds the temporary matrices (~16 MB each)


@dataclass(slots=True)
class Hit:
    """An alignment in plain numbers (the hot-path twin of ``models.Alignment``)."""

    score: int
    token_start: int
    token_end: int
    query_start: int = 0
    query_end: int = 0
    matches: int = 0
    match_blocks: list[tuple[int, int]] = field(default_factory=list)


def _blocks(positions: list[int]) -> list[tuple[int, int]]:
    """Ascending target positions -> contiguous half-open runs."""
    runs: list[tuple[int, int]] = []
    for pos in positions:
        if runs and runs[-1][1] == pos:
            runs[-1] = (runs[-1][0], pos + 1)
        else:
            runs.append((pos, pos + 1))
    return runs


def align_pair(
    query: Tokens,
    target: Tokens,
    match: int = 2,
    mismatch: int = -1,
    gap: int = -1,
    *,
    with_blocks: bool = False,
) -> Hit:
    """The best local alignment of ``query`` inside ``target`` (plain Python)."""
    m, n = len(query), len(target)
    if not m or not n:
        return Hit(0, 0, 0)
    prev: list[tuple[int, int, int, int] | None] = [None] * (n + 1)
    moves = [bytearray(n + 1) for _ in range(m + 1)]
    best = None
    best_end = (0, 0)
    for i in range(1, m + 1):
        cur: list[tuple[int, int, int, int] | None] = [None] * (n + 1)
        q = query[i - 1]
        row_moves = moves[i]
        for j in range(1, n + 1):
            same = q == target[j - 1]
            step = match if same else mismatch
            cell = None
            move = STOP
            d = prev[j - 1]
            if d is not None:
                if d[0] + step > 0:
                    cell, move = (d[0] + step, d[1] + same, d[2], d[3]), DIAGONAL
            elif step > 0:
                cell, move = (step, int(same), j - 1, i - 1), DIAGONAL
            for src, kind, fresh in ((prev[j], UP, (j, i - 1)), (cur[j - 1], LEFT, (j - 1, i))):
                if src is not None:
                    cand = (src[0] + gap, src[1], src[2], src[3])
                else:
                    cand = (gap, 0, fresh[0], fresh[1])
                if cand[0] <= 0:
                    continue
                if cell is None or (cand[0], cand[1], -cand[2], -cand[3]) > (
                    cell[0],
                    cell[1],
                    -cell[2],
                    -cell[3],
                ):
                    cell, move = cand, kind
            cur[j] = cell
            row_moves[j] = move
            if cell is not None:
                key = (cell[0], cell[1], -cell[2], j - cell[2], -cell[3], -j, -i)
                if best is None or key > best:
                    best, best_end = key, (i, j)
        prev = cur
    if best is None:
        return Hit(0, 0, 0)
    i, j = best_end
    end_i, end_j = i, j
    matches = 0
    positions: list[int] = []
    while i > 0 and j > 0 and moves[i][j] != STOP:
        move = moves[i][j]
        if move == DIAGONAL:
            i -= 1
            j -= 1
            if query[i] == target[j]:
                matches += 1
                positions.append(j)
        elif move == UP:
            i -= 1
        else:
            j -= 1
    positions.reverse()
    return Hit(best[0], j, end_j, i, end_i, matches, _blocks(positions) if with_blocks else [])


def _fits(m: int, n_cols: int, gap_cost: int) -> bool:
    m1 = m + 1
    scale = m1 * m1 * n_cols
    top = (2 * m + 1) * scale
    reset = top + gap_cost * scale * n_cols + 1
    return (2 * m + 1) * m1**3 * n_cols * n_cols < _INT64_SAFE and reset * (n_cols + 1) < _INT64_SAFE


def align_many(
    query: Tokens,
    targets: Sequence[Tokens],
    match: int = 2,
    mismatch: int = -1,
    gap: int = -1,
    *,
    with_blocks: bool = False,
) -> list[Hit]:
    """``align_pair`` of ``query`` against each target, vectorised over all targets."""
    if match <= 0 or mismatch > 0 or gap > 0:
        return [align_pair(query, t, match, mismatch, gap, with_blocks=with_blocks) for t in targets]
    if not targets:
        return []
    if not len(query):
        return [Hit(0, 0, 0) for _ in targets]
    out: list[Hit] = []
    for chunk in _chunks(len(query), targets, -gap):
        if len(chunk) == 1 and not _fits(len(query), len(chunk[0]) + 1, -gap):
            out.append(align_pair(query, chunk[0], match, mismatch, gap, with_blocks=with_blocks))
            continue
        arrays, blocks = _align_packed(query, chunk, match, mismatch, gap, with_blocks)
        for k, (score, t_start, t_end, q_start, q_end, matches) in enumerate(
            zip(*(a.tolist() for a in arrays))
        ):
            out.append(
                Hit(score, t_start, t_end, q_start, q_end, matches, blocks[k] if blocks is not None else [])
            )
    return out


def _chunks(m: int, targets: Sequence[Tokens], gap_cost: int) -> list[list[Tokens]]:
    """Consecutive groups of targets small enough for one packed pass."""
    chunks: list[list[Tokens]] = []
    current: list[Tokens] = []
    cols = 0
    for t in targets:
        width = len(t) + 1
        if current and (m * (cols + width) > _MAX_CELLS or not _fits(m, cols + width, gap_cost)):
            chunks.append(current)
            current, cols = [], 0
        current.append(t)
        cols += width
    if current:
        chunks.append(current)
    return chunks


def _align_packed(
    query: Tokens, targets: Sequence[Tokens], match: int, mismatch: int, gap: int, with_blocks: bool
) -> tuple[HitArrays, TargetBlocks | None]:
    """(score, token_start, token_end, query_start, query_end, matches) arrays, and the
    match blocks per target when asked."""
    import numpy as np

    m = len(query)
    m1 = m + 1
    lengths = np.fromiter((len(t) for t in targets), dtype=np.int64, count=len(targets))
    n_cols = int(lengths.sum()) + len(targets)
    seps = np.zeros(len(targets), dtype=np.int64)
    np.cumsum(lengths[:-1] + 1, out=seps[1:])
    offsets = seps + 1
    layout = np.full(n_cols, -1, dtype=np.int64)
    non_empty = [t for t in targets if len(t)]
    if non_empty:
        is_token = np.ones(n_cols, dtype=bool)
        is_token[seps] = False
        layout[is_token] = np.concatenate([np.asarray(t, dtype=np.int64) for t in non_empty])
    q = np.asarray(query, dtype=np.int64)

    scale = m1 * m1 * n_cols  # one score point; meta = (matches*N + N-1-ts)*(m+1) + (m-qs)
    match_unit = n_cols * m1
    cols = np.arange(n_cols, dtype=np.int64)
    gap_cost = -gap
    seg_id = np.zeros(n_cols, dtype=np.int64)
    seg_id[seps] = 1
    np.cumsum(seg_id, out=seg_id)
    reset = (2 * m + 1) * scale + gap_cost * scale * n_cols + 1
    shift = cols * (gap_cost * scale) + seg_id * reset

    # Keys are stored shifted by (scale - 1): valid cells (score >= 1) are > 0 and a
    # stopped cell is exactly 0, so "invalid -> stop" is a single maximum with 0.
    same = q[:, None] == layout[None, :]  # (m, N)
    step = np.where(same, match * scale + match_unit, mismatch * scale)
    step[:, seps] = -_INT64_SAFE  # nothing continues through a reset column
    fresh_meta = (n_cols - 1 - cols) * m1
    fresh = np.where(
        same,
        (match * scale + match_unit - (scale - 1))
        + fresh_meta[None, :]
        + (m - np.arange(m, dtype=np.int64))[:, None],
        0,
    )

    keys = np.empty((m, n_cols), dtype=np.int64)
    moves = np.empty((m, n_cols), dtype=np.int8) if with_blocks else None
    prev = np.zeros(n_cols, dtype=np.int64)
    shifted = np.zeros(n_cols, dtype=np.int64)
    diag = np.empty(n_cols, dtype=np.int64)
    up = np.empty(n_cols, dtype=np.int64)
    best = np.empty(n_cols, dtype=np.int64)
    stopped = np.empty(n_cols, dtype=bool)
    gap_key = gap * scale
    for r in range(m):
        row = keys[r]
        shifted[1:] = prev[:-1]
        np.add(shifted, step[r], out=diag)
        np.less_equal(shifted, 0, out=stopped)
        np.copyto(diag, fresh[r], where=stopped)
        np.add(prev, gap_key, out=up)
        np.maximum(diag, up, out=best)
        np.maximum(best, 0, out=best)
        np.add(best, shift, out=row)
        np.maximum.accumulate(row, out=row)
        np.subtract(row, shift, out=row)
        np.maximum(row, 0, out=row)
        if moves is not None:
            mv = np.zeros(n_cols, dtype=np.int8)
            mv[best > 0] = DIAGONAL
            mv[(up > 0) & (up > diag)] = UP
            mv[row > best] = LEFT
            moves[r] = mv
        prev = row
    # End cell per target: (score, matches, -ts) then column, -qs, -row. Within one
    # column that is the cell order plus "smaller row", i.e. max/argmax of the keys.
    col_key = keys.max(axis=0)
    col_row = keys.argmax(axis=0)
    valid = col_key > 0
    col_key += scale - 1
    end_key = ((col_key // m1) * n_cols + cols) * m1
    end_key += col_key % m1
    end_key *= m1
    end_key += m - 1 - col_row
    end_key[~valid] = -1
    best_per_target = np.maximum.reduceat(end_key, seps)

    ek = best_per_target
    found = ek >= 0
    ek = np.where(found, ek, 0)
    rows_end = m - ek % m1
    rest = ek // m1
    q_start = m - rest % m1
    rest //= m1
    col = rest % n_cols
    rest //= n_cols
    t_start = n_cols - 1 - rest % n_cols - offsets
    rest //= n_cols
    matches = rest % m1
    score = rest // m1
    t_end = col - offsets + 1
    zero = np.zeros_like(ek)
    arrays = tuple(np.where(found, a, zero) for a in (score, t_start, t_end, q_start, rows_end, matches))
    blocks = None
    if with_blocks:
        assert moves is not None  # allocated above whenever blocks are asked for
        blocks = [
            _trace_blocks(moves, q, layout, int(rows_end[k]), int(col[k]), int(offsets[k]))
            if found[k]
            else []
            for k in range(len(targets))
        ]
    return arrays, blocks


def _trace_blocks(
    moves: npt.NDArray[np.int8],
    q: npt.NDArray[np.int64],
    layout: npt.NDArray[np.int64],
    i: int,
    col: int,
    off: int,
) -> list[tuple[int, int]]:
    positions: list[int] = []
    while i > 0:
        move = moves[i - 1, col]
        if move == DIAGONAL:
            if q[i - 1] == layout[col]:
                positions.append(col - off)
            i -= 1
            col -= 1
        elif move == UP:
            i -= 1
        elif move == LEFT:
            col -= 1
        else:
            break
    positions.reverse()
    return _blocks(positions)


class SmithWatermanAligner:
    """Object form with the reference's constructor and ``align``/``align_batch`` methods."""

    def __init__(
        self,
        match_score: int = 2,
        mismatch_score: int = -1,
        gap_score: int = -1,
        *,
        return_match_blocks: bool = False,
    ) -> None:
        self.match_score = match_score
        self.mismatch_score = mismatch_score
        self.gap_score = gap_score
        self.return_match_blocks = return_match_blocks

    def hits(self, seq1: Tokens, seqs: Sequence[Tokens]) -> list[Hit]:
        return align_many(
            seq1,
            seqs,
            self.match_score,
            self.mismatch_score,
            self.gap_score,
            with_blocks=self.return_match_blocks,
        )

    def align(self, seq1: Sequence[int], seq2: Sequence[int]) -> Alignment:
        return self.align_batch(seq1, [seq2])[0]

    def align_batch(self, seq1: Sequence[int], seqs: Sequence[Sequence[int]]) -> list[Alignment]:
        from citelens.align.models import Alignment

        return [
            Alignment(
                score=h.score,
                token_start=h.token_start,
                token_end=h.token_end,
                query_start=h.query_start,
                query_end=h.query_end,
                matches=h.matches,
                match_blocks=h.match_blocks,
            )
            if h.score > 0
            else Alignment(score=0, token_start=0, token_end=0)
            for h in self.hits(seq1, seqs)
        ]
