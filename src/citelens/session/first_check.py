"""The first check of a big open document on several cores, as `citelens check` does it.

An editor opening a 10,000-report run would otherwise check every report in one thread
before its first diagnostics. Here the reports are cut into short slices, and this
process and forked ones (which share the parsed document without copying it) take them
in turns (`_Turns`): each takes the next slice when it has finished its last, so a
process that is slower (a forked one pays for the pages it copies) or shares its core
takes fewer, and all end together. Each report's outcome is put where
`OpenDocument.result` keeps it: the result then only assembles them, and later edits
re-check single reports as before. The outcomes are the ones a single process computes
(the same `Checker.report_outcome`), so the findings are exactly `citelens check`'s. A
child that fails sends nothing and the slices it took are checked here; a document that
is small, partly checked already, or judged for support (whose judge holds threads and
models) is left to the ordinary single-threaded check.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable, Iterator
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
#: reports in a slice (more for a run of over `MAX_SLICES` of them)
SLICE = 50
#: slices a check is cut into at most: their numbers (4 bytes each) fit in one page, the
#: least buffer a pipe has (a user with many pipes gets one page each), so `_Turns`
#: never waits to write them
MAX_SLICES = 1_000


def check_in_processes(
    doc: OpenDocument,
    processes: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    min_reports: int = MIN_REPORTS,
) -> bool:
    """Compute the outcome of every report of `doc` on `processes` processes at once
    (True), or do nothing (False: not worth it, or not possible here). `progress` is told
    (reports taken, reports) as the slices go.

    In a process with other threads (an editor's server) a child could inherit a lock
    another thread held at the fork (a module being imported): the engine is loaded
    before forking, and a child that has not answered well after this process finished
    its own slices is killed and its slices checked here, so the check never hangs."""
    checker = doc.checker  # first: its first use starts the document's outcomes afresh
    reports = doc._reports  # the session's own model: outcomes are kept there
    items, outcomes = reports.items, reports.outcomes
    if processes < 2 or len(items) < min_reports or not can_fork() or any(o is not None for o in outcomes):
        return False
    if checker.support is not None:
        return False
    from citelens.session.warm import load_engine

    load_engine()  # no import left for a child to wait on
    text, count = reports.text, len(items)
    size = max(SLICE, -(-count // MAX_SLICES))
    slices = [(lo, min(lo + size, count)) for lo in range(0, count, size)]
    done: set[int] = set()  # first reports of the slices whose outcomes are kept

    def take(turns: _Turns) -> Iterator[tuple[int, list[tuple[list[Any], list[Any]]]]]:
        """(first report, outcomes) of each slice this process takes."""
        for number in turns:
            lo, hi = slices[number]
            yield lo, _outcomes(checker, text, items, lo, hi)

    with _Turns(len(slices)) as turns:

        def child() -> list[bytes]:
            # a slice's pickle each: loading one is a short C call (see below)
            return [
                pickle.dumps((lo, [_pack(found, facts) for found, facts in part]), pickle.HIGHEST_PROTOCOL)
                for lo, part in take(turns)
            ]

        children = [fork_sending(child) for _ in range(processes - 1)]
        started = time.monotonic()
        for lo, part in take(turns):
            if progress is not None:
                progress(lo, count)
            _keep(items, outcomes, lo, part)
            done.add(lo)
    deadline = time.monotonic() + CHILD_GRACE_S + CHILD_SLACK * (time.monotonic() - started)
    for pid, read_fd in children:
        blob = _read_until(read_fd, deadline)
        if blob is None:  # no answer in time: stopped, and its slices checked below
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if status == 0 and blob:
            # one slice at a time: loading a child's whole answer (a 50 MB run's) would be
            # one C call holding the interpreter while the editor waits for a hover
            for piece in pickle.loads(blob):
                lo, packed = pickle.loads(piece)
                _keep(items, outcomes, lo, [_unpack(*p) for p in packed], fresh=True)
                done.add(lo)
    for lo, hi in slices:
        if lo not in done:  # taken by a child that failed
            _keep(items, outcomes, lo, _outcomes(checker, text, items, lo, hi))
    return True


class _Turns:
    """The numbers of a check's slices, handed out in turns to the processes sharing it:
    written into a pipe before forking, each read takes the next (a pipe read of a few
    bytes is atomic), and an empty pipe with no writer left ends every process's turns."""

    TOKEN = 4  # bytes per slice number

    def __init__(self, count: int) -> None:
        if count > MAX_SLICES:
            raise ValueError(f"{count} slices: at most {MAX_SLICES} fit in a pipe")
        self._read, write = os.pipe()
        try:
            os.write(write, b"".join(struct.pack(">I", n) for n in range(count)))
        finally:
            os.close(write)  # before forking: the last slice taken ends everyone's turns

    def __iter__(self) -> Iterator[int]:
        while token := os.read(self._read, self.TOKEN):
            yield struct.unpack(">I", token)[0]

    def __enter__(self) -> _Turns:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self._read)


def _keep(
    items: list[Item],
    outcomes: list[Outcome | None],
    lo: int,
    part: list[tuple[list[Any], list[Any]]],
    fresh: bool = False,
) -> None:
    """The outcomes of reports lo.. as the session keeps them (findings in file order).
    A report's facts may be the checker's cached ones, so its number is set on a copy;
    `fresh`: they were made for this call (unpickled), so it is set on them."""
    for n, (found, facts) in enumerate(part, lo):
        fact = facts[0] if facts else None
        if fact is not None:
            if fresh:
                fact.index = items[n].index
            else:
                fact = replace(fact, index=items[n].index)
        outcomes[n] = Outcome(sorted(found, key=finding_order), fact)


def _outcomes(
    checker: Checker, text: str, items: list[Item], lo: int, hi: int
) -> list[tuple[list[Any], list[Any]]]:
    """(findings, facts) of reports lo..hi-1."""
    out: list[tuple[list[Any], list[Any]]] = []
    for n in range(lo, hi):
        found, fact = checker.report_outcome(text, items[n])
        out.append((found, [fact] if fact is not None else []))
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
