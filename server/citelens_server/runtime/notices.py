"""What the user must read, once: a project file's values that need trust and were left
out (the engine's `Workspace.notices`). A log line alone would go unseen, so each notice
is also shown as a warning (window/showMessage), with the `citelens trust` command."""

from __future__ import annotations

import logging

from lsprotocol import types
from pygls.lsp.server import LanguageServer

log = logging.getLogger("citelens_server")


def show_notices(server: LanguageServer) -> None:
    """Show and log the session's new notices (on the event loop's thread). Typed by
    pygls's server, not ours: this module stays out of the server's import cycle."""
    session = getattr(server, "session", None)  # none before `initialize`
    if session is None or not session.notices:
        return
    from citelens_server.runtime.trust_watch import watch_trust

    watch_trust(server)  # a `citelens trust` given from now on applies without a restart
    pending, session.notices = list(session.notices), []
    for notice in pending:
        log.warning("%s", notice)
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=notice))
