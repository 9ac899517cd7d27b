"""Checking a big file on all cores: the reports are split into slices, and forked
processes check all but the first (the engine's `Checker` decides when)."""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from citelens.check.engine import Checker
    from citelens.check.finding import Finding, Target
    from citelens.check.rules.coverage import ReportFacts
    from citelens.source.run_text import Item

MIN_REPORTS = 2000  # below this, starting processes costs more than it saves


def can_fork() -> bool:
    return hasattr(os, "fork") and sys.platform != "darwin"  # macOS frameworks break after fork


#: a finding or a report's facts as a plain tuple of its fields (see `_pack`)
Packed: TypeAlias = tuple[Any, ...]


def worth_forking(reports: int) -> bool:
    return reports >= MIN_REPORTS and can_fork()


def forked_collect(checker: Checker, text: str, items: list[Item]) -> tuple[list[Finding], list[ReportFacts]]:
    """Check the reports in `checker.workers` slices at once: this process takes the
    first slice, forked children (which share the decoded file without copying it) the
    others, each sending back its findings pickled through a pipe. A child that fails
    sends nothing, and its slice is then checked here."""
    n = checker.workers
    bounds = [(len(items) * k // n, len(items) * (k + 1) // n) for k in range(n)]
    children = []
    for lo, hi in bounds[1:]:
        pid, read_fd = fork_sending(partial(_packed_range, checker, text, items[lo:hi]))
        children.append((pid, read_fd, lo, hi))
    findings, facts = checker.collect_range(text, items[bounds[0][0] : bounds[0][1]])
    for pid, read_fd, lo, hi in children:
        with os.fdopen(read_fd, "rb") as pipe:
            blob = pipe.read()
        _, status = os.waitpid(pid, 0)
        part = (
            _unpack(*pickle.loads(blob))
            if status == 0 and blob
            else checker.collect_range(text, items[lo:hi])
        )
        findings.extend(part[0])
        facts.extend(part[1])
    return findings, facts


def fork_sending(compute: Callable[[], object]) -> tuple[int, int]:
    """A forked child that sends `compute()` pickled through a pipe and exits without
    running anything else (status 1 and nothing sent if it fails): its pid and the pipe's
    reading end. The child shares the parent's decoded file without copying it."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(read_fd)
            blob = pickle.dumps(compute(), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as out:
                out.write(blob)
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    return pid, read_fd


def _packed_range(checker: Checker, text: str, items: list[Any]) -> tuple[list[Packed], list[Packed]]:
    return _pack(*checker.collect_range(text, items))


def _pack(findings: list[Finding], facts: list[ReportFacts]) -> tuple[list[Packed], list[Packed]]:
    """Plain tuples: several times cheaper to pickle than dataclass instances (workers
    never carry fixes, which only a single-process `--fix` run computes)."""
    return (
        [
            (f.code, f.severity, f.message, f.pointer, f.target.value, f.start, f.end, f.topic_id, f.data)
            for f in findings
        ],
        [
            (
                r.index,
                r.topic_id,
                r.topic_ptr,
                r.meta_ptr,
                r.narrative,
                r.has_narrative,
                r.values,
                r.doc_refs,
                r.embedded,
            )
            for r in facts
        ],
    )


@cache
def _targets() -> dict[str, Target]:
    from citelens.check.finding import Target

    return {t.value: t for t in Target}


def _unpack(findings: list[Packed], facts: list[Packed]) -> tuple[list[Finding], list[ReportFacts]]:
    """The findings and facts `_pack` made plain (called once per report: a run's first
    check in processes unpacks thousands, on the editor's critical path)."""
    from citelens.check.finding import _built
    from citelens.check.rules.coverage import ReportFacts

    targets = _targets()
    return (
        [
            _built(c, sev, msg, ptr, targets[tgt], start, end, tid, None, data)
            for c, sev, msg, ptr, tgt, start, end, tid, data in findings
        ],
        [ReportFacts(*fields) for fields in facts],
    )
