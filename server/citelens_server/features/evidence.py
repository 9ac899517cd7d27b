"""The cited document and its evidence at a position, for hovers, go to definition and the
show-document command: the engine's `citelens.session.cited` (the report's own documents,
then the configured `corpora`, shared with the checker; the support judge's verdict),
with failures logged instead of breaking the request; and a verdict as a hover shows it
(`citelens.session.verdict_view`), its marking kept per (sentence, evidence).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from citelens.session.errors import SETTINGS_ERRORS
from citelens_server.lsp.markdown import MARK_CLOSE, MARK_OPEN

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens.session.cited import CitedEvidence
    from citelens.session.verdict_view import ShownVerdict
    from citelens_server.runtime.server import CiteLensServer

log = logging.getLogger("citelens_server")

#: (sentence, evidence) pairs whose marked text is kept
MARKS_KEPT = 2048


def evidence_at(doc: OpenDocument, offset: int) -> CitedEvidence | None:
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


def sources_described(doc: OpenDocument) -> str | None:
    """The configured sources of the document's settings, for people (None: none)."""
    try:
        chain = doc.workspace.sources_for(doc.settings)
    except SETTINGS_ERRORS:
        return None
    return chain.describe() if chain is not None else None


def shown(ls: CiteLensServer, sentence: str | None, verdict: Any) -> ShownVerdict:
    """The hover's view of a `SupportVerdict`, matched words between MARK_OPEN and
    MARK_CLOSE (marking is the slow part: kept per sentence and evidence, bounded)."""
    from citelens.session.verdict_view import shown_verdict

    view = shown_verdict(sentence, verdict, MARK_OPEN, MARK_CLOSE, ls.marks)
    while len(ls.marks) > MARKS_KEPT:
        ls.marks.popitem(last=False)
    return view
