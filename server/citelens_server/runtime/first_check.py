"""A big file's first check on several cores, shared by the server's checks and the check
made before the server is loaded (early_check.py): no lsprotocol here."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.session import OpenDocument

log = logging.getLogger("citelens_server")

#: processes a big file's first check may use (session/first_check.py; never more than
#: the cores), and the reports from which it forks them: a fork of the loaded server costs
#: milliseconds, and on two cores a 500-report run's first check takes about 0.08 s
#: instead of 0.1 s, a 1,000-report run's 0.15 s instead of 0.23 s
CHECK_PROCESSES = 4
FORK_REPORTS = 500


def first_check_in_processes(doc: OpenDocument, progress: Callable[[int, int], None] | None) -> None:
    """A big file's first check on several cores (the session's `first_check`; a failure
    is left to the ordinary check, which reports it)."""
    from citelens.session.first_check import check_in_processes

    processes = min(os.cpu_count() or 1, CHECK_PROCESSES)
    try:
        check_in_processes(doc, processes, progress, min_reports=FORK_REPORTS)
    except Exception as exc:
        log.debug("first check in one process (%s)", exc)
