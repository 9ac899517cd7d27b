"""`citelens` command line: a thin dispatcher over the engine.

Each sub-command lives in its own module exposing ``configure(parser)`` and
``run(args) -> int``. Only the chosen module is imported, so ``citelens --help`` and
``citelens check`` never pay for the alignment or server imports.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

from citelens import __version__

#: sub-command -> (module under citelens.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check", "validate report runs against a track spec"),
    "convert": ("convert", "convert a run to another track spec or citation format"),
    "align": ("align", "show the evidence for answer sentences in source documents"),
    "specs": ("specs", "list the track specs, or show one spec's rules"),
    "rules": ("rules", "explain the finding codes"),
    "report": ("report", "write an overview page (HTML) of runs: findings, topics, support"),
    "schema": ("schema", "print the JSON Schema of one report of a track spec"),
    "index": ("index", "build the local index of corpus files (incremental, resumable)"),
    "show": ("show", "print a document from the configured document sources"),
    "serve": ("serve", "run the language server (LSP over stdio) for editors"),
    "trust": ("trust", "trust a project file to name services and tokens (see docs/security.md)"),
}

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

#: sub-commands that close everything they open themselves (caches, document sources), so
#: the program may end without the interpreter's teardown (`entry`); a command writing an
#: SQLite file it does not close would otherwise leave its last changes in the journal
QUICK_EXIT = frozenset({"check"})


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage problems exit 2 with one clear line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="citelens", description="Check, explain and convert TREC RAG-family report runs.")
    parser.add_argument("--version", action="version", version=f"citelens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(f"citelens.cli.{module}").configure(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in COMMANDS:
        command = None
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    module = importlib.import_module(f"citelens.cli.{COMMANDS[args.command][0]}")
    try:
        code: int = module.run(args)
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: one clear line, not a traceback
        print(
            f"citelens {args.command}: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set CITELENS_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        if os.environ.get("CITELENS_DEBUG"):
            raise
        return EXIT_USAGE


def entry() -> NoReturn:
    """The `citelens` program: `main`, then out. After a command of QUICK_EXIT, when nothing
    is left that needs the interpreter's teardown (no exit hooks, no other thread), output
    is flushed and the process ends at once: freeing a big run's objects one by one took
    a tenth of a check's time (mypy leaves the same way). `main` itself returns, for
    callers in a process."""
    code = main()
    command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # a reader gone, or a stream already closed
        pass
    import atexit
    import threading

    hooks = getattr(atexit, "_ncallbacks", lambda: 1)()  # CPython's count; elsewhere: wait
    if command in QUICK_EXIT and hooks == 0 and threading.active_count() == 1:
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
