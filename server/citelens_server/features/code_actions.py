"""Code actions: the engine's fixes as quick fixes, fix-all, `source.fixAll.citelens`, and
conversions of a report or the whole file to another spec, and "Judge this citation with
<model>" on a citation when a model judge is set up (features/judging.py).

Quick fixes carry their edit (one finding's fix: cheap). A "Fix all" edit is never
computed for a light-bulb request: a client with `codeAction/resolve` gets it when it
resolves the action, any other client gets the action with the command
`citelens.applyCodeAction`, which computes the edit when the user chooses it and applies
it through `workspace/applyEdit`. Fix-all and whole-file conversions are computed in a
worker thread (the document's other messages wait, as for a check), so a hover on another
file is answered meanwhile; a cancelled request drops its result. Each edit is one
`WorkspaceEdit`, so it undoes in one step. Conversion titles say what will be lost (the
loss notes); a whole-file conversion is offered only when the user asks for actions (not
on the automatic requests of every cursor move) or asks for its kind.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types

from citelens.session import Edit
from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.features import judging, spec_actions
from citelens_server.lsp.diagnostics import SOURCE, finding_for
from citelens_server.lsp.edits import text_change
from citelens_server.lsp.positions import range_offsets
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import ConversionResult, OpenDocument

T = TypeVar("T")

log = logging.getLogger("citelens_server")

FIX_ALL = "source.fixAll.citelens"
CONVERT_REPORT = "refactor.rewrite.citelens.convert"
CONVERT_FILE = "source.convert.citelens"
APPLY_ACTION = "citelens.applyCodeAction"
KINDS = [
    types.CodeActionKind.QuickFix,
    FIX_ALL,
    CONVERT_REPORT,
    CONVERT_FILE,
    spec_actions.SOURCE_KIND,
    judging.JUDGE_KIND,
]
#: above this many reports a whole-file conversion is offered only when asked for by kind
EAGER_FILE_CONVERSION_MAX = 200


def _wanted(only: Sequence[str] | None, kind: str) -> bool:
    """LSP `context.only`: a kind is wanted if it equals or refines one of them."""
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


async def code_action(ls: CiteLensServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    if ls.problem(doc) is not None:
        return []  # the check failed (its diagnostic says why): nothing to fix
    try:
        result = doc.result
    except SETTINGS_ERRORS:
        return []  # a settings problem shows as a diagnostic; no actions then
    context = params.context
    only = context.only
    lazy = _resolves_edits(ls)
    actions: list[types.CodeAction] = []
    if _wanted(only, types.CodeActionKind.QuickFix):
        actions += quick_fixes(ls, doc, context.diagnostics, lazy)
    if _wanted(only, FIX_ALL) and result.code_counts():
        data = {"what": "fix_all", "code": None, "uri": doc.uri, "version": doc.version}
        actions.append(deferred_action("Fix all safe CiteLens problems", FIX_ALL, data, lazy))
    start, _ = range_offsets(doc.line_index, params.range, ls.encoding)
    if _wanted(only, CONVERT_REPORT) and (only or not context.diagnostics):
        node = doc.node_at(start)
        if node is not None and node.report is not None:
            found = conversions(doc, node.report, _current_spec(ls, doc))  # one report: cheap
            actions += convert_actions(ls, doc, node.report, found, lazy)
    asked = bool(only) or context.trigger_kind != types.CodeActionTriggerKind.Automatic
    if _wanted(only, CONVERT_FILE) and asked and (only or result.reports <= EAGER_FILE_CONVERSION_MAX):
        current, version = _current_spec(ls, doc), doc.version
        whole = await in_worker(ls, doc, lambda: conversions(doc, None, current))
        if whole is not None and ls.document(doc.uri) is doc and doc.version == version:
            actions += convert_actions(ls, doc, None, whole, lazy)
    actions += spec_actions.wanted_actions(ls, doc, context, _current_spec(ls, doc), _wanted)
    actions += judging.judge_actions(ls, doc, params, _wanted)
    return actions


async def resolve(ls: CiteLensServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    doc = ls.document(data.get("uri", ""))
    if doc is None or data.get("version") != doc.version:
        log.info("code action %r: the document changed since it was offered; not applied", action.title)
        return action
    action.edit = await computed_edit(ls, doc, data)
    return action


async def apply_code_action(ls: CiteLensServer, data: Any, *rest: Any) -> dict[str, Any]:
    """`citelens.applyCodeAction(data)`: a deferred action chosen in a client that does not
    resolve edits; its edit is computed now and applied through `workspace/applyEdit`."""
    doc = ls.document(data.get("uri", "")) if isinstance(data, dict) else None
    if doc is None or data.get("version") != doc.version:
        return {"applied": False, "reason": "the document changed since the action was offered"}
    edit = await computed_edit(ls, doc, data)
    if edit is None:
        return {"applied": False, "reason": "the document changed while the edit was computed"}
    label = "Fix all" if data.get("what") == "fix_all" else f"Convert to {data.get('target')}"
    answer = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
    return {"applied": bool(answer.applied)}


FEATURES: list[Feature] = [
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=True),
        code_action,
    ),
    (types.CODE_ACTION_RESOLVE, None, resolve),
]
COMMANDS: list[tuple[str, Callable[..., Any]]] = [(APPLY_ACTION, apply_code_action)]


async def in_worker(ls: CiteLensServer, doc: OpenDocument, work: Callable[[], T]) -> T | None:
    """`work()` in a worker thread while the document's messages wait (None: it failed,
    logged once per cause). Cancelling the caller drops the result."""
    out: list[T] = []

    def job() -> None:
        try:
            out.append(work())
        except Exception as exc:
            ls.errors.error(f"code action on {doc.uri}", exc)

    await ls.checks.run(doc.uri, job)
    return out[0] if out else None


async def computed_edit(
    ls: CiteLensServer, doc: OpenDocument, data: dict[str, Any]
) -> types.WorkspaceEdit | None:
    """The edit of a deferred action, computed in a worker (None: the document changed)."""
    version = doc.version
    edits = await in_worker(ls, doc, lambda: engine_edits(doc, data))
    if edits is None or ls.document(doc.uri) is not doc or doc.version != version:
        return None
    return ls.workspace_edit(doc, edits)


def engine_edits(doc: OpenDocument, data: dict[str, Any]) -> list[Edit]:
    """The engine's edits of a deferred action (in a worker)."""
    what = data.get("what")
    if what == "fix_all":
        outcome = doc.fix_all(data.get("code"))
        if outcome.text == doc.text:
            return []
        start, end, text = text_change(doc.text, outcome.text)
        return [Edit(start, end, text)]
    if what == "convert":
        return list(doc.convert_edits(data["target"], data.get("report")).edits)
    return []


def deferred_action(title: str, kind: str, data: dict[str, Any], lazy: bool) -> types.CodeAction:
    """An action whose edit is computed only when it is chosen: by `codeAction/resolve`
    (`lazy`), or by the `citelens.applyCodeAction` command it carries."""
    action = types.CodeAction(title=title, kind=kind, data=data)
    if not lazy:
        action.command = types.Command(title=title, command=APPLY_ACTION, arguments=[data])
    return action


def quick_fixes(
    ls: CiteLensServer, doc: OpenDocument, diagnostics: Sequence[types.Diagnostic], lazy: bool
) -> list[types.CodeAction]:
    result, lines = doc.result, doc.line_index
    actions: list[types.CodeAction] = []
    codes_seen: set[str] = set()
    for diagnostic in diagnostics:
        if diagnostic.source != SOURCE:
            continue
        start, end = range_offsets(lines, diagnostic.range, ls.encoding)
        # the findings on the lines the diagnostic spans (a client may change its columns)
        first, last = lines.line_of(start), lines.line_of(max(start, end - 1))
        near = result.findings_meeting(lines.starts[first], lines.line_end(last, with_break=True))
        finding = finding_for(diagnostic.code, start, end, near, lines)
        if finding is None:
            continue
        fix = doc.fix_for(finding)
        if fix is None:
            continue
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.applicability == "safe",
                edit=ls.workspace_edit(doc, fix.edits),
            )
        )
        if finding.code in codes_seen:
            continue
        codes_seen.add(finding.code)
        if result.code_counts()[finding.code] > 1:
            data = {"what": "fix_all", "code": finding.code, "uri": doc.uri, "version": doc.version}
            title = f"Fix all {finding.code} in this file"
            actions.append(deferred_action(title, types.CodeActionKind.QuickFix, data, lazy))
    return actions


def conversions(
    doc: OpenDocument, report: int | None, current: str | None
) -> list[tuple[str, ConversionResult]]:
    """(target spec, the engine's conversion) for every built-in spec but the current one
    that converts the report (None: the file) with edits and nothing broken."""
    from citelens.session.catalog import spec_ids

    found = []
    for spec_id in spec_ids():
        if spec_id == current:
            continue
        try:
            result = doc.convert_edits(spec_id, report)
        except Exception as exc:
            log.info("no conversion to %s: %s", spec_id, exc)
            continue
        if result.broken:  # the CLI writes nothing then either
            log.info("no conversion to %s: %d report(s) cannot be converted", spec_id, len(result.broken))
        elif result.edits:
            found.append((spec_id, result))
    return found


def convert_actions(
    ls: CiteLensServer,
    doc: OpenDocument,
    report: int | None,
    found: list[tuple[str, ConversionResult]],
    lazy: bool,
) -> list[types.CodeAction]:
    """Conversion actions whose titles say what is lost; the edit is included unless the
    client resolves it (it is computed already)."""
    from citelens.session.conversion import loss_summary

    where, kind = ("file", CONVERT_FILE) if report is None else ("this report", CONVERT_REPORT)
    actions = []
    for spec_id, result in found:
        data = {
            "what": "convert",
            "target": spec_id,
            "report": report,
            "uri": doc.uri,
            "version": doc.version,
        }
        title = f"Convert {where} to {spec_id}" + loss_summary(result.notes)
        action = types.CodeAction(title=title, kind=kind, data=data)
        action.edit = None if lazy else ls.workspace_edit(doc, result.edits)
        actions.append(action)
    return actions


def _current_spec(ls: CiteLensServer, doc: OpenDocument) -> str | None:
    try:
        return ls.session.settings_for(doc.path).spec if doc.path else None
    except Exception:
        return None


def _resolves_edits(ls: CiteLensServer) -> bool:
    td = ls.client_capabilities.text_document
    support = td.code_action.resolve_support if td and td.code_action else None
    return bool(support and "edit" in (support.properties or []))
