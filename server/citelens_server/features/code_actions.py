"""Code actions: the engine's fixes as quick fixes, fix-all, `source.fixAll.citelens`, and
conversions of a report or the whole file to another spec.

Quick fixes carry their edit (cheap). Fix-all and conversions are resolved lazily
(`codeAction/resolve`) when the client supports it; each is one `WorkspaceEdit` so it
undoes in one step. Conversion titles say what will be lost (the loss notes).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens.session import Edit
from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.features import spec_actions
from citelens_server.lsp.diagnostics import SOURCE, finding_for
from citelens_server.lsp.edits import text_change
from citelens_server.lsp.positions import range_offsets
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import OpenDocument

log = logging.getLogger("citelens_server")

FIX_ALL = "source.fixAll.citelens"
CONVERT_REPORT = "refactor.rewrite.citelens.convert"
CONVERT_FILE = "source.convert.citelens"
KINDS = [types.CodeActionKind.QuickFix, FIX_ALL, CONVERT_REPORT, CONVERT_FILE, spec_actions.SOURCE_KIND]
#: above this many reports a whole-file conversion is offered only when asked for by kind
EAGER_FILE_CONVERSION_MAX = 200


def _wanted(only: Sequence[str] | None, kind: str) -> bool:
    """LSP `context.only`: a kind is wanted if it equals or refines one of them."""
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def code_action(ls: CiteLensServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    if ls.problem(doc) is not None:
        return []  # the check failed (its diagnostic says why): nothing to fix
    try:
        doc.result  # noqa: B018 (a settings problem shows as a diagnostic; no actions then)
    except SETTINGS_ERRORS:
        return []
    only = params.context.only
    lazy = _resolves_edits(ls)
    actions: list[types.CodeAction] = []
    if _wanted(only, types.CodeActionKind.QuickFix):
        actions += quick_fixes(ls, doc, params.context.diagnostics, lazy)
    if _wanted(only, FIX_ALL):
        actions += fix_all_actions(ls, doc, lazy)
    start, end = range_offsets(doc.line_index, params.range, ls.encoding)
    if _wanted(only, CONVERT_REPORT) and (only or not params.context.diagnostics):
        actions += convert_actions(ls, doc, start, lazy, whole_file=False)
    if _wanted(only, CONVERT_FILE) and (only or doc.result.reports <= EAGER_FILE_CONVERSION_MAX):
        actions += convert_actions(ls, doc, start, lazy, whole_file=True)
    actions += spec_actions.wanted_actions(ls, doc, params.context, _current_spec(ls, doc), _wanted)
    return actions


def resolve(ls: CiteLensServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    doc = ls.document(data.get("uri", ""))
    if doc is None or data.get("version") != doc.version:
        log.info("code action %r: the document changed since it was offered; not applied", action.title)
        return action
    action.edit = compute_edit(ls, doc, data)
    return action


FEATURES: list[Feature] = [
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=True),
        code_action,
    ),
    (types.CODE_ACTION_RESOLVE, None, resolve),
]


def compute_edit(ls: CiteLensServer, doc: OpenDocument, data: dict[str, Any]) -> types.WorkspaceEdit | None:
    what = data.get("what")
    if what == "fix_all":
        outcome = doc.fix_all(data.get("code"))
        start, end, text = text_change(doc.text, outcome.text)
        return ls.workspace_edit(doc, [Edit(start, end, text)] if outcome.text != doc.text else [])
    if what == "convert":
        result = doc.convert_edits(data["target"], data.get("report"))
        return ls.workspace_edit(doc, result.edits)
    return None


def quick_fixes(
    ls: CiteLensServer, doc: OpenDocument, diagnostics: Sequence[types.Diagnostic], lazy: bool
) -> list[types.CodeAction]:
    findings = doc.result.findings
    actions: list[types.CodeAction] = []
    codes_seen: set[str] = set()
    for diagnostic in diagnostics:
        if diagnostic.source != SOURCE:
            continue
        start, end = range_offsets(doc.line_index, diagnostic.range, ls.encoding)
        finding = finding_for(diagnostic.code, start, end, findings)
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
        same = sum(1 for f in findings if f.code == finding.code)
        if same > 1:
            data = {"what": "fix_all", "code": finding.code, "uri": doc.uri, "version": doc.version}
            actions.append(
                _lazy_action(
                    ls, doc, f"Fix all {finding.code} in this file", types.CodeActionKind.QuickFix, data, lazy
                )
            )
    return actions


def fix_all_actions(ls: CiteLensServer, doc: OpenDocument, lazy: bool) -> list[types.CodeAction]:
    data = {"what": "fix_all", "code": None, "uri": doc.uri, "version": doc.version}
    action = _lazy_action(ls, doc, "Fix all safe CiteLens problems", FIX_ALL, data, lazy)
    if action.edit is not None and not _has_edits(action.edit):
        return []
    return [action]


def convert_actions(
    ls: CiteLensServer, doc: OpenDocument, offset: int, lazy: bool, *, whole_file: bool
) -> list[types.CodeAction]:
    from citelens.session.catalog import spec_ids
    from citelens.session.conversion import loss_summary

    report = None
    if not whole_file:
        node = doc.node_at(offset)
        if node is None or node.report is None:
            return []
        report = node.report
    current = _current_spec(ls, doc)
    actions = []
    for spec_id in spec_ids():
        if spec_id == current:
            continue
        try:
            result = doc.convert_edits(spec_id, report)
        except Exception as exc:
            log.info("no conversion to %s: %s", spec_id, exc)
            continue
        if not result.edits or result.broken:
            if result.broken:  # the CLI writes nothing then either
                log.info("no conversion to %s: %d report(s) cannot be converted", spec_id, len(result.broken))
            continue
        where = "file" if whole_file else "this report"
        title = f"Convert {where} to {spec_id}" + loss_summary(result.notes)
        data = {
            "what": "convert",
            "target": spec_id,
            "report": report,
            "uri": doc.uri,
            "version": doc.version,
        }
        kind = CONVERT_FILE if whole_file else CONVERT_REPORT
        action = types.CodeAction(title=title, kind=kind, data=data)
        action.edit = None if lazy else ls.workspace_edit(doc, result.edits)
        actions.append(action)
    return actions


def _current_spec(ls: CiteLensServer, doc: OpenDocument) -> str | None:
    try:
        return ls.session.settings_for(doc.path).spec if doc.path else None
    except Exception:
        return None


def _lazy_action(
    ls: CiteLensServer, doc: OpenDocument, title: str, kind: str, data: dict[str, Any], lazy: bool
) -> types.CodeAction:
    action = types.CodeAction(title=title, kind=kind, data=data)
    if not lazy:
        action.edit = compute_edit(ls, doc, data)
    return action


def _has_edits(edit: types.WorkspaceEdit) -> bool:
    if edit.document_changes:
        return any(getattr(c, "edits", None) for c in edit.document_changes)
    return any(edit.changes.values()) if edit.changes else False


def _resolves_edits(ls: CiteLensServer) -> bool:
    td = ls.client_capabilities.text_document
    support = td.code_action.resolve_support if td and td.code_action else None
    return bool(support and "edit" in (support.properties or []))
