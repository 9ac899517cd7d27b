"""`citelens serve`: run the language server over stdio.

The engine never imports the server (tests/test_package_layers.py): this command replaces
the process with `python -m citelens_server`, which keeps stdin/stdout for the protocol.
"""

from __future__ import annotations

import argparse
import os
import sys


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead (for debugging)")


def run(args: argparse.Namespace) -> int:
    argv = [sys.executable, "-m", "citelens_server", *(["--tcp", args.tcp] if args.tcp else [])]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)
    return 0  # not reached
