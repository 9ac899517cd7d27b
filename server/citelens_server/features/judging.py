"""On-demand model judges: "Judge this citation with <model>" (`citelens.judgeCitation`,
the citation at a position) and "Judge this file" (`citelens.judgeFile`). A model judge
never runs on a keystroke: only these commands send a document's citations to it, in a
worker thread with a cancellable progress bar; the hover shows the lexical evidence at
once and the model's verdict once it is in (the findings are published again).

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
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from citelens_server.runtime.progress import Progress
from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

JUDGE_CITATION = "citelens.judgeCitation"
JUDGE_FILE = "citelens.judgeFile"


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
    from citelens.session.model_judging import (
        Cancelled,
        JudgeError,
        NothingToJudge,
        environment_judge,
        judge_document,
    )

    doc = ls.document(uri)
    if doc is None:
        return {"ok": False, "reason": "the file is not open"}
    try:
        backend, cascade, cancel = environment_judge(doc)
    except (JudgeError, *SETTINGS_ERRORS) as exc:  # type: ignore[misc]  # a tuple of classes
        return {"ok": False, "reason": str(exc)}
    loop = asyncio.get_running_loop()
    progress = Progress(ls, "judge")
    await progress.begin(f"Judging {'a citation' if offset is not None else 'the file'} with {backend.id}")

    def report(done: int, total: int) -> None:  # on the event loop
        if progress.cancelled():
            cancel.set()
        progress.report(
            types.WorkDoneProgressReport(
                message=f"{done}/{total} calls", percentage=int(100 * done / total) if total else 100
            )
        )

    def on_progress(done: int, total: int) -> None:  # in the worker thread
        if progress.cancelled():
            cancel.set()
        loop.call_soon_threadsafe(report, done, total)

    answer: dict[str, Any] = {"ok": False, "judge": backend.id, "cancelled": False}
    try:
        outcome = await asyncio.to_thread(
            judge_document, doc, backend, offset=offset, cascade=cascade, progress=on_progress
        )
        answer.update(ok=True, calls=outcome.planned, answered=outcome.done, failed=outcome.failed)
        answer["cancelled"] = outcome.cancelled
    except NothingToJudge as exc:
        answer["reason"] = str(exc)
    except Cancelled:
        answer.update(cancelled=True, reason="cancelled; the answers so far are kept")
    except asyncio.CancelledError:  # the client cancelled the request itself
        cancel.set()
        raise
    except JudgeError as exc:
        answer["reason"] = str(exc)
    except Exception as exc:  # never a crash: said and logged
        log.exception("judging %s", uri)
        answer["reason"] = f"cannot judge ({exc})"
    finally:
        progress.end("cancelled" if answer["cancelled"] else answer.get("reason") or f"{backend.id}: done")
    if answer.get("answered"):
        ls.request_check(uri, now=True)  # the findings with the model's verdicts
    return answer


#: uri -> True when a save came while its on-save judging ran (judge again at the end)
_saving: dict[str, bool] = {}


def judge_on_save(ls: CiteLensServer, uri: str) -> None:
    """A saved file: judge it with the model in the background when its settings ask for
    it (a model judge, `support_model.on_save`, a model set up); else nothing."""
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
    if uri in _saving:
        _saving[uri] = True
        return
    _saving[uri] = False

    async def run() -> None:
        try:
            while True:
                answer = await _judge(ls, uri, None)
                log.info("%s: judged on save: %s", uri, answer)
                if not _saving.get(uri) or ls.document(uri) is None:
                    break
                _saving[uri] = False
        finally:
            _saving.pop(uri, None)

    ls.keep(asyncio.ensure_future(run()))


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (JUDGE_CITATION, judge_citation),
    (JUDGE_FILE, judge_file),
]
