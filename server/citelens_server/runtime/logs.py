"""Logging: to stderr always, and to the client's log (`window/logMessage`), never popups.

The `trace` setting chooses how much reaches the client: off -> warnings and errors,
messages -> info, verbose -> debug. pygls logs every message it sends at INFO, so its own
loggers stay at WARNING (and stdout is never written to: it carries the protocol).
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from citelens_server.runtime.server import CiteLensServer

LEVELS = {"off": logging.WARNING, "messages": logging.INFO, "verbose": logging.DEBUG}
MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
}


class ClientLogHandler(logging.Handler):
    """Forwards records to the client once the connection is up."""

    def __init__(self, server: CiteLensServer) -> None:
        super().__init__(logging.WARNING)
        self.server = server
        self._busy = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._busy or getattr(self.server.protocol, "writer", None) is None:
            return
        self._busy = True  # a failure while sending must not log-loop
        try:
            kind = next(
                (t for lvl, t in MESSAGE_TYPES.items() if record.levelno >= lvl), types.MessageType.Log
            )
            self.server.protocol.notify_json(
                types.WINDOW_LOG_MESSAGE, {"type": int(kind), "message": self.format(record)}
            )
        except Exception:
            pass
        finally:
            self._busy = False


def setup(server: CiteLensServer, level: str = "off") -> ClientLogHandler:
    root = logging.getLogger("citelens_server")
    root.setLevel(logging.DEBUG)
    root.propagate = False
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(logging.Formatter("%(asctime)s citelens %(levelname)s %(message)s"))
    stderr.setLevel(logging.INFO)
    client = ClientLogHandler(server)
    client.setFormatter(logging.Formatter("%(message)s"))
    client.setLevel(LEVELS.get(level, logging.WARNING))
    root.handlers[:] = [stderr, client]
    pygls = logging.getLogger("pygls")
    pygls.setLevel(logging.WARNING)
    pygls.addHandler(stderr)
    stderr.addFilter(_not_answered_here)
    return client


def _not_answered_here(record: logging.LogRecord) -> bool:
    """pygls logs a traceback for a message whose params do not fit; the protocol answers
    it -32602 (or logs one line for a notification) instead."""
    return not str(record.msg).startswith("Unable to deserialize message")


def set_trace(handler: ClientLogHandler, trace: str) -> None:
    handler.setLevel(LEVELS.get(trace, logging.WARNING))
