"""Judging the support of a whole open document at once, with progress and a way to stop.

An editor checks report by report and judges each citation on the spot; for a large file
with the `support` setting on, that is minutes of work with nothing to show for it. This
judges every not-yet-judged citation of the file in one batch on the support executor
(`SupportRun.prepare`), reporting `(pairs done, pairs in all)` as batches finish; the
verdicts land in the run's cache, so the check that follows reads them from memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from citelens.check.view import ReportView
    from citelens.session.open_document import OpenDocument
    from citelens.support.run import SupportRun


class SupportCancelled(Exception):
    """The caller stopped the batch; nothing judged in it was kept."""


def _run_and_views(doc: OpenDocument) -> tuple[SupportRun | None, list[ReportView]]:
    checker = doc.checker
    if checker.support is None:
        return None, []
    from citelens.check.view import ReportView

    views = []
    for item in doc.items:
        if item.syntax is not None:
            continue
        value: Any = item.decoded(doc.text).value
        if isinstance(value, dict):
            views.append(ReportView.build(value, checker.spec))
    return cast("SupportRun", checker.support), views


def citations_to_judge(doc: OpenDocument) -> int:
    """How many citations the document's support check judges (0: support is off)."""
    from citelens.support.reports import sentence_pairs

    run, views = _run_and_views(doc)
    if run is None:
        return 0
    return sum(len(cited) for view in views for _, _, _, cited in sentence_pairs(view))


def judge_document(
    doc: OpenDocument,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> int:
    """Judge every citation of the document not judged yet; returns the citations seen.
    Raises `SupportCancelled` when `cancelled()` answers True between two batches."""
    run, views = _run_and_views(doc)
    if run is None or not views:
        return 0

    def report(done: int, total: int) -> None:
        if cancelled is not None and cancelled():
            raise SupportCancelled("the support check was cancelled")
        if progress is not None:
            progress(done, total)

    reports = replace(run, progress=report).prepare(views)  # shares the run's verdict cache
    return sum(len(s.citations) for r in reports for s in r.sentences)
