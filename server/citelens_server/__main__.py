"""`python -m citelens_server [--tcp HOST:PORT]`: serve over stdio (the default)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens_server.runtime.server import CiteLensServer

GC_THRESHOLDS = (10_000, 50, 100)  # Python's defaults are (700, 10, 10)


def create_server() -> CiteLensServer:  # imports kept inside: `--help` stays instant
    from citelens_server.app import create_server as create

    return create()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="citelens serve", description="Run the CiteLens language server.")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead (for debugging)")
    args = parser.parse_args(argv)

    # Every keystroke in a big run allocates thousands of short-lived findings; with the
    # default thresholds they push the session's long-lived parsed reports through full
    # collections several times a minute, the slowest 5% of edits. Collect less often
    # (from the start: the first check may run before the server is loaded).
    gc.set_threshold(*GC_THRESHOLDS)
    early = first = None
    if not args.tcp:  # the answer to `initialize` may be written while the server loads
        from citelens_server.runtime.early_answer import EarlyAnswer
        from citelens_server.runtime.start_cache import server_cache_dir

        protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
        from citelens_server.runtime.pipe_size import widen

        widen(protocol_out.fileno())
        from citelens_server.runtime.early_check import HOLD_S, check_first
        from citelens_server.runtime.fd_reader import FdReader

        # the descriptor, not sys.stdin.buffer: a reader thread blocked in a buffered
        # stream holds its lock, which aborts the interpreter's exit (SIGABRT)
        early = EarlyAnswer(FdReader(sys.stdin.fileno()), protocol_out, server_cache_dir(), HOLD_S)
        early.start()

        first = check_first(early, protocol_out)  # before pygls loads: see early_check.py

    from citelens_server.runtime.start_cache import StartCache, default_path

    start_cache = StartCache(default_path())
    start_cache.install()  # before lsprotocol is imported: see start_cache.py
    from citelens_server.runtime import logs

    server = create_server()
    start_cache.uninstall()
    start_cache.save()
    server.log_handler = logs.setup(server)
    if early is None:
        host, _, port = (args.tcp or "").rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
        return 0
    # The protocol owns the real stdout; anything else printing goes to stderr.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    server.protocol.early_answer = early
    server.adopt(first)
    server.start_io(early.stdin_for_server(), protocol_out)
    return server.protocol.exit_code  # 1 after `exit` without `shutdown` (LSP)


if __name__ == "__main__":
    sys.exit(main())
