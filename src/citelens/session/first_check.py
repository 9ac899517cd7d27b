"""The first check of a big open document on several cores, as `citelens check` does it.

An editor opening a 10,000-report run would otherwise check every report in one thread
before its first diagnostics. Here the reports are split into slices; forked processes
(which share the parsed document without copying it) check all slices but the first,
this process the first, and each report's outcome is put where `OpenDocument.result`
keeps it: the result then only assembles them, and later edits re-check single reports
as before. The outcomes are the ones a single process computes (the same
`Checker.report_outcome`), so the findings are exactly `citelens check`'s. A child that
fails sends nothing and its slice is checked here; a document that is small, partly
checked already, or judged for support (whose judge holds threads and models) is left to
the ordinary single-threaded check.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from citelens.check.finding import finding_order
from citelens.check.workers import MIN_REPORTS, _pack, _unpack, can_fork, fork_sending
from citelens.session.reports import Outcome

if TYPE_CHECKING:
    from citelens.check.engine import Checker
    from citelens.session.open_document import OpenDocument
    from citelens.source.run_text import Item

#: (findings, facts) of one report, as plain tuples (`check.workers`)
Packed = tuple[list[Any], list[Any]]
#: a child may take this long, plus this many times this process's own slice, to answer
CHILD_GRACE_S = 10.0
CHILD_SLACK = 3
#: reports' outcomes a child pickles together (`in_pieces`): a millisecond or two to load
PICKLE_PIECE = 200


def check_in_processes(
    doc: OpenDocument,
    processes: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    min_reports: int = MIN_REPORTS,
) -> bool:
    """Compute the outcome of every report of `doc` in `processes` slices at once (True),
    or do nothing (False: not worth it, or not possible here). `progress` is told
    (reports checked, reports) as this process's slice goes, scaled to the whole file.

    In a process with other threads (an editor's server) a child could inherit a lock
    another thread held at the fork (a module being imported): the engine is loaded
    before forking, and a child that has not answered well after this process finished
    its own slice is killed and its slice checked here, so the check never hangs."""
    checker = doc.checker  # first: its first use starts the document's outcomes afresh
    reports = doc._reports  # the session's own model: outcomes are kept there
    items, outcomes = reports.items, reports.outcomes
    if processes < 2 or len(items) < min_reports or not can_fork() or any(o is not None for o in outcomes):
        return False
    if checker.support is not None:
        return False
    from citelens.session.warm import load_engine

    load_engine()  # no import left for a child to wait on
    text = reports.text
    bounds = [(len(items) * k // processes, len(items) * (k + 1) // processes) for k in range(processes)]
    children = [_fork(checker, text, items, lo, hi) for lo, hi in bounds[1:]]
    first_lo, first_hi = bounds[0]
    started = time.monotonic()
    parts = [_outcomes(checker, text, items, first_lo, first_hi, progress, scale=processes)]
    deadline = time.monotonic() + CHILD_GRACE_S + CHILD_SLACK * (time.monotonic() - started)
    for (pid, read_fd), (lo, hi) in zip(children, bounds[1:]):
        blob = _read_until(read_fd, deadline)
        if blob is None:  # no answer in time: stopped, and its slice checked here
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        parts.append(
            [_unpack(*p) for p in from_pieces(pickle.loads(blob))]
            if status == 0 and blob
            else [(found, facts) for found, facts in _outcomes(checker, text, items, lo, hi)]
        )

    n = 0
    for part in parts:
        for found, facts in part:
            item = items[n]
            fact = facts[0] if facts else None
            outcomes[n] = Outcome(
                sorted(found, key=finding_order),
                replace(fact, index=item.index) if fact is not None else None,
            )
            n += 1
    return True


def _outcomes(
    checker: Checker,
    text: str,
    items: list[Item],
    lo: int,
    hi: int,
    progress: Callable[[int, int], None] | None = None,
    scale: int = 1,
) -> list[tuple[list[Any], list[Any]]]:
    out: list[tuple[list[Any], list[Any]]] = []
    for n in range(lo, hi):
        if progress is not None and (n - lo) % 100 == 0:
            progress(min((n - lo) * scale, len(items)), len(items))
        found, fact = checker.report_outcome(text, items[n])
        out.append((found, [fact] if fact is not None else []))
    return out


def _fork(checker: Checker, text: str, items: list[Item], lo: int, hi: int) -> tuple[int, int]:
    """A child checking items[lo:hi], sending their packed outcomes through a pipe."""
    return fork_sending(
        lambda: in_pieces([_pack(found, facts) for found, facts in _outcomes(checker, text, items, lo, hi)])
    )


def in_pieces(values: list[Any], size: int = PICKLE_PIECE) -> list[bytes]:
    """`values` pickled `size` at a time: `pickle.loads` of one child's whole slice (10,000
    reports of a 50 MB run) is one C call that holds the GIL for a few hundred milliseconds,
    and the event loop answering a hover on another file waits for it."""
    return [pickle.dumps(values[i : i + size], pickle.HIGHEST_PROTOCOL) for i in range(0, len(values), size)]


def from_pieces(pieces: list[bytes]) -> list[Any]:
    """The values `in_pieces` pickled, in order (each piece a short C call)."""
    out: list[Any] = []
    for piece in pieces:
        out += pickle.loads(piece)
    return out


def _read_until(fd: int, deadline: float) -> bytes | None:
    """All a child writes to `fd` until it closes it, or None at the deadline."""
    chunks: list[bytes] = []
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        while True:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([pipe], [], [], wait)[0]:
                return None
            chunk = pipe.read(1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
