"""An editor's "Judge this citation / this file with <model>": the open document's
citations (one, or all) judged by a model judge on demand, never on a keystroke. The
verdicts are cached by the document's SupportRun like any model verdict, and the
reports they belong to are checked again, so the findings and the hover show them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citelens.check.view import ReportView

if TYPE_CHECKING:
    from citelens.session.document import OpenDocument
    from citelens.support.executor import Progress
    from citelens.support.model_judge import ModelBackend, Outcome


class NothingToJudge(ValueError):
    """No citation at the place asked (the message says so)."""


def judge_document(
    doc: OpenDocument,
    backend: ModelBackend,
    *,
    offset: int | None = None,
    cascade: bool = False,
    progress: Progress | None = None,
) -> Outcome:
    """Judge the citation at `offset` (None: every citation of the document) with
    `backend`; then the document's findings are recomputed with the model's verdicts."""
    items = list(doc.items)
    pointers: set[str] | None = None
    if offset is not None:
        citation = doc.citation_at(offset)
        if citation is None or citation.doc_id is None:
            raise NothingToJudge("there is no citation of a document here")
        items = [items[citation.report]]
        pointers = {citation.pointer}
    checker = doc.checker
    views = [ReportView.build(item.decoded(doc.text).value, checker.spec) for item in items]
    run = doc.workspace.support_run_for(doc.settings)
    outcome = run.judge_with(backend, views, cascade=cascade, pointers=pointers, progress=progress)
    text = doc.text
    for item in items:  # their findings change: forget what the checker kept of them
        checker.forget_report(text[item.start : item.end])
    doc.forget_result()
    return outcome
