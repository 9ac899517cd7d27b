"""`citelens serve`: run the language server over stdio (the server package loads only here)."""

from __future__ import annotations

import argparse


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead (for debugging)")


def run(args: argparse.Namespace) -> int:
    import importlib

    server_main = importlib.import_module("citelens_server.__main__").main
    argv = ["--tcp", args.tcp] if args.tcp else []
    return int(server_main(argv) or 0)
