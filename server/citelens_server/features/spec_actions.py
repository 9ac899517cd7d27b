"""Code actions "Set track spec…": one per built-in spec, the specs under which the file
has no errors first (ranked by the engine: `citelens.session.spec_ranking`), each writing
`spec = "<id>"` into the project file (the `citelens.setSpec` command's edit).

Offered as quick fixes when no spec is configured (so the light bulb shows them), and as
source actions always.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

SOURCE_KIND = "source.setSpec.citelens"
QUICK_KIND = "quickfix.setSpec.citelens"


def ranking(ls: CiteLensServer, doc: OpenDocument) -> list[Any]:
    """The engine's ranking of the built-in specs for this document version (kept for a
    few versions on the server: the light bulb asks again on every cursor move)."""
    from citelens.session.spec_ranking import rank_document
    from citelens_server.runtime.server import RANKINGS_KEPT

    key = (doc.uri, doc.version, ls.generation)
    hit = ls.rankings.get(key)
    if hit is not None:
        return hit
    fits = ls.rankings[key] = rank_document(doc)
    while len(ls.rankings) > RANKINGS_KEPT:
        ls.rankings.popitem(last=False)
    return fits


def set_spec_actions(
    ls: CiteLensServer, doc: OpenDocument, current: str | None, kind: str
) -> list[types.CodeAction]:
    from citelens_server.features.commands import spec_edit

    if doc.path is None:
        return []  # an untitled document has no project file
    actions = []
    for fit in ranking(ls, doc):
        if fit.spec == current:
            continue
        how = "no errors" if fit.errors == 0 else f"{fit.errors} error(s)"
        title = f"Set track spec: {fit.spec} ({how})"
        try:
            edit = spec_edit(ls, doc.path, fit.spec)
        except Exception:
            log.exception("no edit for spec %s", fit.spec)
            continue
        actions.append(
            types.CodeAction(
                title=title,
                kind=kind,
                edit=edit,
                is_preferred=None,
                command=None,
                data={"what": "set_spec", "spec": fit.spec},
            )
        )
    return actions


def wanted_actions(
    ls: CiteLensServer,
    doc: OpenDocument,
    context: types.CodeActionContext,
    current: str | None,
    wanted: Callable[[Sequence[str] | None, str], bool],
) -> list[types.CodeAction]:
    """The set-spec actions this request asks for (`wanted(only, kind)`: LSP `context.only`).
    Without `only`, the source actions are listed when the user asked for actions (not
    for the light bulb's automatic requests, which would rank the specs on every move)."""
    only = context.only
    if only and wanted(only, SOURCE_KIND):
        return set_spec_actions(ls, doc, current, SOURCE_KIND)
    if current is None and wanted(only, QUICK_KIND):
        return set_spec_actions(ls, doc, current, QUICK_KIND)
    if not only and context.trigger_kind != types.CodeActionTriggerKind.Automatic:
        return set_spec_actions(ls, doc, current, SOURCE_KIND)
    return []
