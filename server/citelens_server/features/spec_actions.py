"""Code actions for the track spec, when none is configured: one "Set track spec to X" for
the track the file looks like (the engine's guess, `citelens.specs.recognise`), and one
"Set track spec…" that opens a picker (`citelens.pickSpec`; VS Code's own spec picker).
Never a list per spec, and nothing when a spec is configured: the project file decides.

The edit writes `spec` for the runs of the file's folder into its project file, in place
(`citelens.config.settings_edit`): the other folders' runs keep their settings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens.session.spec_choice import TrackGuess
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

SOURCE_KIND = "source.setSpec.citelens"
QUICK_KIND = "quickfix.setSpec.citelens"
#: a big file is recognised on its first reports
SAMPLE_REPORTS = 50


def guess(ls: CiteLensServer, doc: OpenDocument) -> TrackGuess | None:
    """The engine's confident guess of the track for this document version, or None (kept
    for a few versions on the server: the light bulb asks again on every cursor move)."""
    from citelens.session.spec_choice import recognise_track
    from citelens_server.runtime.server import RANKINGS_KEPT

    key = (doc.uri, doc.version, ls.generation)
    if key in ls.track_guesses:
        return ls.track_guesses[key]
    text, items = doc.text, doc.items
    if doc.layout == "jsonl" and len(items) > SAMPLE_REPORTS:
        text = text[: items[SAMPLE_REPORTS - 1].end]
    found = recognise_track(text)
    ls.track_guesses[key] = found if found is not None and found.confident else None
    while len(ls.track_guesses) > RANKINGS_KEPT:
        ls.track_guesses.popitem(last=False)
    return ls.track_guesses[key]


def set_spec_actions(
    ls: CiteLensServer, doc: OpenDocument, current: str | None, kind: str
) -> list[types.CodeAction]:
    from citelens_server.features.spec_settings import PICK_SPEC, as_workspace_edit, setting_edit_for

    if doc.path is None or current is not None:
        return []  # an untitled document has no project file; a configured spec decides
    actions = []
    found = guess(ls, doc)
    if found is not None:
        try:
            edit = as_workspace_edit(setting_edit_for(ls, doc.path, "spec", found.spec))
        except Exception:
            log.exception("no edit for spec %s", found.spec)
        else:
            actions.append(
                types.CodeAction(
                    title=f"Set track spec to {found.spec}",
                    kind=kind,
                    edit=edit,
                    is_preferred=True,
                    data={"what": "set_spec", "spec": found.spec},
                )
            )
    actions.append(
        types.CodeAction(
            title="Set track spec…",
            kind=kind,
            command=types.Command(title="Set track spec…", command=PICK_SPEC, arguments=[doc.uri]),
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
    """The set-spec actions this request asks for (`wanted(only, kind)`: LSP `context.only`):
    quick fixes for the light bulb, source actions when asked for them."""
    only = context.only
    if only and wanted(only, SOURCE_KIND):
        return set_spec_actions(ls, doc, current, SOURCE_KIND)
    if wanted(only, QUICK_KIND):
        return set_spec_actions(ls, doc, current, QUICK_KIND)
    return []
