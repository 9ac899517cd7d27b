"""The cited document and its evidence at a position, for hovers, go to definition and the
show-document command: the engine's `citelens.session.cited` (the report's own documents,
then the configured `corpora`, shared with the checker; the support judge's verdict),
with failures logged instead of breaking the request.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from citelens_server.server import SETTINGS_ERRORS

log = logging.getLogger("citelens_server")


def report_value(doc: Any, offset: int) -> tuple[dict | None, int]:
    """(the decoded report holding `offset`, its start offset), or (None, 0)."""
    node = doc.node_at(offset)
    if node is None:
        return None, 0
    root = node.parents[-1] if node.parents else node
    try:
        value = json.loads(doc.text[root.start : root.end])
    except ValueError:
        return None, 0
    return (value, root.start) if isinstance(value, dict) else (None, 0)


def evidence_at(doc: Any, offset: int) -> Any:
    """The engine's `CitedEvidence` of the citation under `offset` (None: no citation, or
    it could not be worked out; the reason is logged)."""
    from citelens.session.cited import cited_evidence

    try:
        return cited_evidence(doc, offset)
    except SETTINGS_ERRORS as exc:
        log.info("no evidence at %s:%d: %s", doc.uri, offset, exc)
    except Exception:
        log.exception("evidence at %s:%d", doc.uri, offset)
    return None


def sources_described(doc: Any) -> str | None:
    """The configured sources of the document's settings, for people (None: none)."""
    try:
        chain = doc.workspace.sources_for(doc.settings)
    except SETTINGS_ERRORS:
        return None
    return chain.describe() if chain is not None else None
