"""On-demand model judges: "Judge this citation with <model>" (`citelens.judgeCitation`,
the citation at a position; also a code action on a citation when a model judge is set
up) and "Judge this file" (`citelens.judgeFile`). A model judge never runs on a
keystroke: only these commands send a document's citations to it, in a worker thread
with a cancellable progress bar (Cancel stops at once; the answers so far are kept); the
document is held only while its citations are read, so the hover shows the lexical
evidence at once and the model's verdict once it is in (the findings are published
again at the end).

On save (`judge_on_save`): when the file's judge is a model judge and the user's
`support_model.on_save` is true, the saved file's citations not judged yet go to the
model in the background, with the same progress bar and Cancel; a save while that runs
judges once more when it ends.

The model comes from the `support_model` settings (the user's editor settings, which VS
Code never takes from a workspace, or a trusted project file), else the server's own
environment (CITELENS_LLM_ENDPOINT, CITELENS_LLM_MODEL, CITELENS_LLM_KEY_ENV, or
CITELENS_NLI_MODEL)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens_server.lsp.positions import offset_at
from citelens_server.runtime.progress import Progress
from citelens_server.runtime.server import CiteLensServer

if TYPE_CHECKING:
    from citelens.session import OpenDocument

log = logging.getLogger("citelens_server")

JUDGE_CITATION = "citelens.judgeCitation"
JUDGE_FILE = "citelens.judgeFile"
#: the kind of the "Judge this citation with <model>" code action
JUDGE_KIND = "citelens.judge"


async def judge_citation(
    ls: CiteLensServer, uri: str, line: int, character: int, *rest: Any
) -> dict[str, Any]:
    doc = ls.document(uri)
    if doc is None:
        return {"ok": False, "reason": "the file is not open"}
    offset = doc.line_index.offset_at(int(line), int(character), ls.encoding)
    return await _judge(ls, uri, offset)


async def judge_file(ls: CiteLensServer, uri: str, *rest: Any) -> dict[str, Any]:
    return await _judge(ls, uri, None)


async def _judge(ls: CiteLensServer, uri: str, offset: int | None) -> dict[str, Any]:
    from citelens.session.errors import SETTINGS_ERRORS
    from citelens.session.model_judging import JudgeError, Judging, environment_judge, plan_judging

    doc = ls.document(uri)
    if doc is None:
        return {"ok": False, "reason": "the file is not open"}
    planned: list[Judging | str] = []

    def failed(exc: BaseException) -> str:
        if isinstance(exc, (JudgeError, *SETTINGS_ERRORS)):
            return str(exc)
        log.exception("judging %s", uri)  # never a crash: said and logged
        return f"cannot judge ({exc})"

    try:  # the model set up (an nli model is loaded) in a worker, the document not held
        backend, cascade, _cancel = await asyncio.to_thread(environment_judge, doc)
    except Exception as exc:
        return {"ok": False, "reason": failed(exc)}

    def plan() -> None:  # in a worker, the document's messages held meanwhile (it reads the document)
        try:
            planned.append(plan_judging(doc, offset, backend=backend, cascade=cascade))
        except Exception as exc:
            planned.append(failed(exc))

    await ls.checks.run(uri, plan)
    judging = planned[0] if planned else "cannot judge (see the log)"
    if isinstance(judging, str):
        return {"ok": False, "reason": judging}
    loop = asyncio.get_running_loop()
    progress = Progress(ls, "judge")
    await progress.begin(f"Judging {'a citation' if offset is not None else 'the file'} with {judging.judge}")
    progress.on_cancel(judging.cancel.set)  # at once: a slow call in flight is not waited for

    def report(done: int, total: int) -> None:  # on the event loop
        progress.report(
            types.WorkDoneProgressReport(
                message=f"{done}/{total} calls", percentage=int(100 * done / total) if total else 100
            )
        )

    def on_progress(done: int, total: int) -> None:  # in the worker thread
        if progress.cancelled():
            judging.cancel.set()
        loop.call_soon_threadsafe(report, done, total)

    answer: dict[str, Any] = {"ok": False, "judge": judging.judge, "cancelled": False}
    try:
        outcome = await asyncio.to_thread(judging.call, on_progress)  # the document is not held
        answer.update(ok=True, calls=outcome.planned, answered=outcome.done, failed=outcome.failed)
        if outcome.cancelled:
            answer.update(cancelled=True, reason="cancelled; the answers so far are kept")
    except asyncio.CancelledError:  # the client cancelled the request itself
        judging.cancel.set()
        raise
    except JudgeError as exc:
        answer["reason"] = str(exc)
    except Exception as exc:  # never a crash: said and logged
        log.exception("judging %s", uri)
        answer["reason"] = f"cannot judge ({exc})"
    finally:
        progress.end("cancelled" if answer["cancelled"] else answer.get("reason") or f"{judging.judge}: done")
    if answer.get("answered") and ls.document(uri) is doc:
        await ls.checks.run(uri, lambda: judging.finish(doc))
        ls.request_check(uri, now=True)  # the findings with the model's verdicts
    return answer


def judge_actions(
    ls: CiteLensServer,
    doc: OpenDocument,
    params: types.CodeActionParams,
    wanted: Callable[[Sequence[str] | None, str], bool],
) -> list[types.CodeAction]:
    """The action "Judge this citation with <model>" on a citation of a file whose model judge is
    set up (none otherwise). Cheap, as a code action must be: the action carries the
    `citelens.judgeCitation` command, and nothing is judged, loaded or called until the
    user chooses it."""
    from citelens.session.errors import SETTINGS_ERRORS
    from citelens.session.model_judging import offered_judge

    if not wanted(params.context.only, JUDGE_KIND):
        return []
    start = params.range.start
    try:
        judge = offered_judge(doc, offset_at(doc.line_index, start.line, start.character, ls.encoding))
    except SETTINGS_ERRORS:  # a settings problem shows as a diagnostic
        return []
    if judge is None:
        return []
    title = f"Judge this citation with {judge}"
    command = types.Command(
        title=title, command=JUDGE_CITATION, arguments=[params.text_document.uri, start.line, start.character]
    )
    return [types.CodeAction(title=title, kind=JUDGE_KIND, command=command)]


def judge_on_save(ls: CiteLensServer, uri: str) -> None:
    """A saved file: judge it with the model in the background when its settings ask for
    it (a model judge, `support_model.on_save`, a model set up); else nothing. A save
    while that runs makes it judge once more when it ends (however many saves came)."""
    from citelens.session.errors import SETTINGS_ERRORS
    from citelens.session.model_setup import judges_on_save

    doc = ls.document(uri)
    if doc is None:
        return
    try:
        wanted = judges_on_save(doc.settings)
    except SETTINGS_ERRORS:  # a broken project file: the check says so
        return
    if not wanted:
        return
    saving = ls.judging_on_save
    if uri in saving:
        saving[uri] = True
        return
    saving[uri] = False

    async def run() -> None:
        try:
            while True:
                answer = await _judge(ls, uri, None)
                log.info("%s: judged on save: %s", uri, answer)
                if not saving.get(uri) or ls.document(uri) is None:
                    break
                saving[uri] = False
        finally:
            saving.pop(uri, None)

    ls.keep(asyncio.ensure_future(run()))


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (JUDGE_CITATION, judge_citation),
    (JUDGE_FILE, judge_file),
]
