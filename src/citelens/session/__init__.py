"""What an editor holds: the workspace's settings and checkers, and open documents
checked incrementally. The CLI's `check`, `--fix`, `--diff` and `convert` use the same
calls, so no behaviour lives in one front end only.

    from citelens.session import Workspace, TextChange

    ws = Workspace(roots=[folder], init_options={"spec": "rag25"})
    ws.set_editor_settings({"strict": True}, folder=folder)   # per folder (None: all)
    doc = ws.open("file:///runs/run.jsonl", text, version=1)
    doc.result.findings                       # exactly what `citelens check` gives
    doc.apply_changes([TextChange(10, 12, "x")], version=2)   # re-reads the touched reports
    doc.node_at(offset)                       # NodeInfo(report, pointer, kind, start, end, parents)
    doc.sentence_at(offset); doc.citation_at(offset)
    doc.fix_for(finding)                      # that finding's Fix, or None
    doc.fix_all("citation_duplicate")         # FixOutcome(text, result, applied)
    doc.convert_edits("ragtime25")            # ConversionResult(edits, notes, broken)
    ws.refresh()                              # True when a settings/spec/topics file changed

Offsets are code-point offsets into the document text (Python `str` indices); line and
column in UTF-8, UTF-16 or UTF-32 units come from `doc.line_index.position(offset,
encoding)` and go back with `line_index.offset_at(line, character, encoding)`. Lines break
at `\\n`, `\\r\\n` and `\\r` only. Settings precedence, per key: the command line (`cli=`),
the project file (`citelens.toml` or `[tool.citelens]`, nearest above the file), the
editor settings of the folder holding the file, the editor's global settings, the
initialization options, the defaults (`Settings.origins` tells which one applied).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export

if TYPE_CHECKING:
    from citelens.check.finding import Finding
    from citelens.check.result import FileResult, PlacedOnRead, placed_in_file, places_related
    from citelens.config.settings import Settings
    from citelens.fixes.apply import FixOutcome
    from citelens.session.changes import TextChange
    from citelens.session.conversion import ConversionResult
    from citelens.session.lookup import CitationInfo, NodeInfo, SentenceInfo
    from citelens.session.open_document import OpenDocument
    from citelens.session.workspace import Workspace
    from citelens.source.edits import Edit, Fix

# Names load on first use: `citelens check` needs the workspace alone, and the document
# side (lookups, conversion, fixing) would add to every run's start-up.
_EXPORTS = {
    "CitationInfo": "citelens.session.lookup",
    "ConversionResult": "citelens.session.conversion",
    "Edit": "citelens.source.edits",
    "FileResult": "citelens.check.result",
    "Finding": "citelens.check.finding",
    "Fix": "citelens.source.edits",
    "FixOutcome": "citelens.fixes.apply",
    "NodeInfo": "citelens.session.lookup",
    "OpenDocument": "citelens.session.open_document",
    "PlacedOnRead": "citelens.check.result",
    "placed_in_file": "citelens.check.result",
    "places_related": "citelens.check.result",
    "SentenceInfo": "citelens.session.lookup",
    "Settings": "citelens.config.settings",
    "TextChange": "citelens.session.changes",
    "Workspace": "citelens.session.workspace",
}

__all__ = [
    "CitationInfo",
    "ConversionResult",
    "Edit",
    "FileResult",
    "Finding",
    "Fix",
    "FixOutcome",
    "NodeInfo",
    "OpenDocument",
    "PlacedOnRead",
    "SentenceInfo",
    "Settings",
    "TextChange",
    "Workspace",
    "placed_in_file",
    "places_related",
]


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _EXPORTS, name)
