"""A run at a glance: the overview page of `citelens report` and the editor's webview.

`collect` turns what `citelens check` found (a `FileResult`, with its support when the
check judged citations) and the run's text into plain data (`model`); `charts` draws
that data as inline SVG; `page` writes one self-contained HTML file (inline script and
styles under a strict Content-Security-Policy, no network). The page's script
(`page.js`) builds the tables and the drill-down from the embedded data, text only
through `textContent`, so no report text is ever parsed as HTML.
"""

from __future__ import annotations

from citelens.overview.collect import run_overview
from citelens.overview.model import Overview, RunOverview
from citelens.overview.page import render_page

__all__ = ["Overview", "RunOverview", "render_page", "run_overview"]
