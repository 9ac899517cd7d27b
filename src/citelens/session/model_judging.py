"""An editor's "Judge this citation / this file with <model>": the open document's
citations (one, or all) judged by a model judge on demand, never on a keystroke. The
verdicts are cached by the document's SupportRun like any model verdict, and the
reports they belong to are checked again, so the findings and the hover show them."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from citelens.check.view import ReportView
from citelens.support.errors import JudgeError
from citelens.support.llm_client import Cancelled

if TYPE_CHECKING:
    from citelens.session.open_document import OpenDocument
    from citelens.support.executor import Progress
    from citelens.support.model_judge import ModelBackend, Outcome

__all__ = ["Cancelled", "JudgeError", "NothingToJudge", "environment_judge", "judge_document"]


class NothingToJudge(JudgeError):
    """No citation at the place asked, or no model set up (the message says so)."""


def environment_judge(doc: OpenDocument) -> tuple[ModelBackend, bool, threading.Event]:
    """(the model backend, cascade?, its cancel flag) for an editor's document: the
    project's model judge (`support_judge`), else the one the user's settings set up; the
    model from the `support_model` table of the user's settings (or a trusted project
    file), else the environment the editor was started with. Raises JudgeError
    (NothingToJudge when no model is set up)."""
    from citelens.session.model_setup import model_options
    from citelens.support.backends import model_backend

    options = model_options(doc.settings)
    name = doc.settings.support_judge
    configured = options.configured
    if configured is None:
        raise NothingToJudge(
            "no model judge is set up: set support_model (endpoint and model, or nli_model) "
            "in your editor's user settings, or start the editor with CITELENS_LLM_ENDPOINT "
            "and CITELENS_LLM_MODEL (or CITELENS_NLI_MODEL) in its environment"
        )
    if name == "lexical":
        name = configured
    backend, cascade = model_backend(name, options)
    assert backend is not None  # a model judge's name
    return backend, cascade, options.cancel


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
    if run.model_cache is None:  # a run made before the model was set up
        from citelens.session.model_setup import attach_model

        attach_model(run, doc.settings)
    outcome = run.judge_with(backend, views, cascade=cascade, pointers=pointers, progress=progress)
    text = doc.text
    for item in items:  # their findings change: forget what the checker kept of them
        checker.forget_report(text[item.start : item.end])
    doc.forget_result()
    return outcome
