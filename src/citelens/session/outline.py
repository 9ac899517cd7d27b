"""How a report is named in an outline (document symbols, workspace symbols): its topic
id and run id, read as the checker reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.session.document import OpenDocument
    from citelens.source.document import Item


def report_label(doc: OpenDocument, item: Item) -> tuple[str, str]:
    """(topic id or "report N", run id or "") of one report item; a spec that cannot be
    read leaves the reading to the shapes every spec knows."""
    from citelens.check.view import ReportView
    from citelens.session.errors import SETTINGS_ERRORS

    value = item.value
    if not isinstance(value, dict):
        return f"report {item.index + 1}", ""
    try:
        spec = doc.checker.spec
    except SETTINGS_ERRORS:
        spec = None
    view = ReportView.build(value, spec)
    run_id = view.meta.get("run_id") if isinstance(view.meta, dict) else None
    return (view.topic_id or f"report {item.index + 1}"), (run_id if isinstance(run_id, str) else "")
