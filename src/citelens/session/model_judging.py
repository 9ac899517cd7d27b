"""An editor's "Judge this citation with <model>" and "Judge this file": the open
document's citations (one, or all) judged by a model judge on demand, never on a
keystroke. The verdicts are cached by the document's SupportRun like any model verdict,
and the reports they belong to are checked again, so the findings and the hover show them.

A judging has three steps, so that an editor can keep answering while the model works:
`plan_judging` reads the document (which citations, their lexical verdicts: the
document must not change meanwhile), `Judging.call` makes the model calls (it reads no
document: the editor may edit, hover and check meanwhile; the hover shows each model
verdict once it is in), and `Judging.finish` tells the document that its verdicts
changed. `judge_document` does the three in a row."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citelens.check.view import ReportView
from citelens.support.errors import JudgeError
from citelens.support.llm_client import Cancelled

if TYPE_CHECKING:
    from citelens.session.open_document import OpenDocument
    from citelens.support.executor import Progress
    from citelens.support.model_judge import Item, ModelBackend, Outcome
    from citelens.support.run import SupportRun

__all__ = [
    "Cancelled",
    "JudgeError",
    "Judging",
    "NothingToJudge",
    "environment_judge",
    "judge_document",
    "offered_judge",
    "plan_judging",
]

NO_MODEL = (
    "no model judge is set up: set support_model (endpoint and model, or nli_model) "
    "in your editor's user settings, or start the editor with CITELENS_LLM_ENDPOINT "
    "and CITELENS_LLM_MODEL (or CITELENS_NLI_MODEL) in its environment"
)


class NothingToJudge(JudgeError):
    """No citation at the place asked, or no model set up (the message says so)."""


def _judge_name(doc: OpenDocument) -> str | None:
    """The model judge the document's judge commands use ("llm", "nli", "cascade"): the
    project's `support_judge` when it names a model judge, else the one the user's
    settings set up (None: no model is set up)."""
    from citelens.session.model_setup import model_options

    configured = model_options(doc.settings).configured
    if configured is None:
        return None
    name = doc.settings.support_judge
    return configured if name == "lexical" else name


def environment_judge(doc: OpenDocument) -> tuple[ModelBackend, bool, threading.Event]:
    """(the model backend, cascade?, its cancel flag) for an editor's document: the
    project's model judge (`support_judge`), else the one the user's settings set up; the
    model from the `support_model` table of the user's settings (or a trusted project
    file), else the environment the editor was started with. An nli model is loaded here.
    Raises JudgeError (NothingToJudge when no model is set up)."""
    from citelens.session.model_setup import model_options
    from citelens.support.backends import model_backend

    name = _judge_name(doc)
    if name is None:
        raise NothingToJudge(NO_MODEL)
    options = model_options(doc.settings)
    backend, cascade = model_backend(name, options)
    assert backend is not None  # a model judge's name
    return backend, cascade, options.cancel


def offered_judge(doc: OpenDocument, offset: int) -> str | None:
    """The judge "Judge this citation with <judge>" would use on the citation at `offset`
    (`llm:<model>`, `nli:<name>`), or None: no citation of a document there, or no model
    judge set up for the file. Cheap (for a code action): nothing is loaded or called."""
    citation = doc.citation_at(offset)
    if citation is None or citation.doc_id is None:
        return None
    name = _judge_name(doc)
    if name is None:
        return None
    from citelens.session.model_setup import model_options
    from citelens.support.backends import backend_id

    return backend_id(name, model_options(doc.settings))


@dataclass
class Judging:
    """A document's citations planned for a model judge (see the module's docstring)."""

    backend: ModelBackend
    items: list[Item]  # the pairs still to judge (what is cached is not asked again)
    run: SupportRun
    reports: list[str]  # the texts of the reports judged, as they were when planned

    @property
    def judge(self) -> str:
        return self.backend.id

    @property
    def cancel(self) -> threading.Event:
        """Set it to stop: no call starts after it, and `call` returns at once."""
        return self.backend.cancel

    def call(self, progress: Progress | None = None) -> Outcome:
        """The model calls (reads no document): each verdict is cached as it arrives, so
        a cancelled judging keeps what it got. An endpoint's failure on one call is
        counted in `Outcome.failed`; JudgeError when the endpoint cannot serve any."""
        return self.run.call_model(self.backend, self.items, progress=progress)

    def finish(self, doc: OpenDocument) -> None:
        """The judged reports' findings change: the document checks them again."""
        checker = doc.checker
        for text in self.reports:
            checker.forget_report(text)
        doc.forget_result()


def plan_judging(
    doc: OpenDocument,
    offset: int | None = None,
    *,
    backend: ModelBackend | None = None,
    cascade: bool = False,
) -> Judging:
    """What judging the citation at `offset` (None: every citation of the document) with
    the document's model judge (`environment_judge`, unless `backend` is given) asks of
    the model. Reads the document. Raises NothingToJudge (no citation there, no model)
    or JudgeError (the model cannot be set up)."""
    items = list(doc.items)
    text = doc.text
    pointers: set[str] | None = None
    if offset is not None:
        citation = doc.citation_at(offset)
        if citation is None or citation.doc_id is None:
            raise NothingToJudge("there is no citation of a document here")
        items = [items[citation.report]]
        pointers = {citation.pointer}
    if backend is None:
        backend, cascade, _cancel = environment_judge(doc)
    checker = doc.checker
    views = [ReportView.build(item.decoded(text).value, checker.spec) for item in items]
    run = doc.workspace.support_run_for(doc.settings)
    if run.model_cache is None:  # a run made before the model was set up
        from citelens.session.model_setup import attach_model

        attach_model(run, doc.settings)
    todo = run.model_items(backend, views, cascade=cascade, pointers=pointers)
    return Judging(backend, todo, run, [text[item.start : item.end] for item in items])


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
    judging = plan_judging(doc, offset, backend=backend, cascade=cascade)
    outcome = judging.call(progress)
    judging.finish(doc)
    return outcome
