"""Honouring a `citelens trust` given while the server runs.

The trust record lives in the user's config folder, outside every workspace, so no
editor reports its change. Once a project file's values were left out for want of trust
(the session `awaits_trust`), the server looks at the record's stamp once a second; when
it changes, the session re-reads its project files and every open run is checked again,
without an edit or a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

log = logging.getLogger("citelens_server")

#: seconds between two looks at the trust record (one stat each)
POLL_S = 1.0


def watch_trust(server: Any) -> None:
    """Start watching the trust record (once per server), if the session awaits trust.
    Called on the event loop's thread, where `show_notices` runs."""
    session = getattr(server, "session", None)
    if session is None or not session.awaits_trust() or getattr(server, "trust_watch", None) is not None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not on the loop: the next notice starts it
        return
    server.trust_watch = loop.create_task(_poll(server, session.trust_record_stamp()))


async def _poll(server: Any, seen: object) -> None:
    while True:
        await asyncio.sleep(POLL_S)
        session = server.session
        stamp = session.trust_record_stamp()
        if stamp == seen:
            continue
        seen = stamp
        log.info("the trust record changed: project files are read again")
        with contextlib.suppress(Exception):  # a broken project file is reported by the check
            if session.refresh():
                server.recheck_all()
