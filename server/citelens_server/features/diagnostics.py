"""Pull diagnostics (`textDocument/diagnostic`), registered when the client supports them
(pushed diagnostics are published by the server object when a check ends).

The result id names the document version and the settings generation, so an unchanged
document under unchanged settings is answered `unchanged`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from lsprotocol import types

from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.lsp.diagnostics import JsonArray
from citelens_server.lsp.json_text import Json
from citelens_server.runtime.problems import Problem
from citelens_server.runtime.server import CiteLensServer, Feature

if TYPE_CHECKING:
    from citelens.session import OpenDocument


def result_id(ls: CiteLensServer, doc: OpenDocument) -> str:
    return f"{doc.version}/{ls.generation}"


def diagnostic(ls: CiteLensServer, params: types.DocumentDiagnosticParams) -> Json:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return Json({"kind": "full", "items": []})
    rid = result_id(ls, doc)
    if params.previous_result_id == rid:
        return Json({"kind": "unchanged", "resultId": rid})
    checked = ls.checks.diagnostics_for(doc)  # made in a worker (background.py)
    if checked is not None and checked.diagnostics is not None:
        items: JsonArray | str = checked.diagnostics
    elif checked is not None and checked.problem is not None:
        items = ls.settings_problem(doc, checked.problem)
    else:
        try:
            items = ls.diagnostics_json(doc, params.text_document.uri)
        except SETTINGS_ERRORS as exc:
            items = ls.settings_problem(doc, Problem.settings(exc))
    return Json(text=f'{{"kind":"full","resultId":{json.dumps(rid)},"items":{items}}}')


#: registered only for clients that pull diagnostics (see lifecycle.py)
PULL_FEATURES: list[Feature] = [
    (
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="citelens", inter_file_dependencies=False, workspace_diagnostics=True
        ),
        diagnostic,
    ),
]
