"""`citelens.runOverview(uris?)`: the overview page (`citelens report`'s HTML) of run
files, folders or, with no argument, the workspace's runs, for the editor's webview.

The engine makes the page (citelens.session.overview) in a worker thread; open files are
summed up as the editor holds them. The answer names the runs' paths, so the client
reveals only places in those files.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from citelens_server.runtime.server import CiteLensServer, uri_path

log = logging.getLogger("citelens_server")

RUN_OVERVIEW = "citelens.runOverview"


async def run_overview(ls: CiteLensServer, *args: Any) -> dict[str, Any]:
    """The page of the runs named by `args[0]` (a list of URIs), or of the workspace's runs."""
    uris = [u for u in (args[0] if args and isinstance(args[0], list) else args) if isinstance(u, str)]
    if ls.session is None:
        return {"html": None, "reason": "the server is not initialized"}
    if uris:
        paths = [p for p in (uri_path(u) for u in uris) if p is not None]
    else:
        from citelens_server.features.commands import run_files

        paths = run_files(ls)
    if not paths:
        return {"html": None, "reason": "no run files to sum up"}
    texts = {}
    for path in paths:
        doc = ls.document(path.as_uri())
        if doc is not None:
            texts[str(path)] = doc.text
    return await asyncio.to_thread(_page, ls, [str(p) for p in paths], texts)


COMMANDS: list[tuple[str, Callable[..., Any]]] = [(RUN_OVERVIEW, run_overview)]


def _page(ls: CiteLensServer, paths: list[str], texts: dict[str, str]) -> dict[str, Any]:
    from citelens.session.overview import overview_page

    answer = overview_page(ls.session, paths, texts)
    said = answer.get("problems") if answer["html"] is not None else [answer.get("reason")]
    for problem in said or ():
        log.warning("run overview: %s", problem)
    return answer
