"""`citelens index CORPUS... [--db PATH]`: build or bring up to date the embedded document index."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from citelens.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from citelens.corpus.index_build import BuildProgress


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "corpora",
        nargs="+",
        metavar="CORPUS",
        help="corpus files (.jsonl, .jsonl.gz, .jsonl.zst) or folders of them",
    )
    p.add_argument("--db", help="where the index goes (default: the user cache, keyed by the corpus paths)")
    for role in ("id", "text", "title", "url"):
        p.add_argument(
            f"--{role}-field",
            dest=f"{role}_field",
            metavar="NAME",
            help=f"the field holding the {role} (default: detected)",
        )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress and no summary")


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class _ProgressLine:
    """One self-overwriting status line on a terminal (nothing when not a terminal)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, progress: BuildProgress) -> None:
        eta = progress.eta
        line = (
            f"indexed {progress.docs:,} documents · {_size(progress.bytes_done)} of {_size(progress.bytes_total)}"
            f" · {progress.rate:,.0f} docs/s" + (f" · ETA {_clock(eta)}" if eta is not None else "")
        )
        self.stream.write("\r" + line[:150].ljust(100))
        self.stream.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    from citelens.cli.walk_progress import walk_progress

    with walk_progress(quiet=args.quiet):  # a big corpus folder: its walk is shown
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from citelens.corpus.cache_dir import default_index_path
    from citelens.corpus.index_build import IndexBusy, build_index
    from citelens.corpus.reading import CorpusFileError

    corpora = [Path(c) for c in args.corpora]
    db = Path(args.db) if args.db else default_index_path(corpora)
    overrides = {
        r: getattr(args, f"{r}_field") for r in ("id", "text", "title", "url") if getattr(args, f"{r}_field")
    }
    progress = _ProgressLine(sys.stderr) if sys.stderr.isatty() and not args.quiet else None
    import sqlite3

    try:
        report = build_index(corpora, db, overrides=overrides, on_progress=progress)
    except KeyboardInterrupt:
        if progress:
            progress.end()
        print(f"citelens index: interrupted; {db} is partial and the next run resumes it", file=sys.stderr)
        return 130
    except (CorpusFileError, IndexBusy, OSError) as exc:
        if progress:
            progress.end()
        print(f"citelens index: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.DatabaseError as exc:
        if progress:
            progress.end()
        print(f"citelens index: {db}: not an index this version can write ({exc})", file=sys.stderr)
        return EXIT_USAGE
    if progress:
        progress.end()
    troubled = False
    for path, line, message in report.problems:
        print(f"{path}:{line}: skipped: {message}", file=sys.stderr)
    for outcome in report.files:
        if outcome.bad > len([p for p in report.problems if p[0] == outcome.path]):
            print(
                f"{outcome.path}: {outcome.bad:,} lines skipped in all (the first ones are listed above)",
                file=sys.stderr,
            )
        if outcome.stopped:
            troubled = True
            print(f"{outcome.path}: stopped: {outcome.stopped}", file=sys.stderr)
        if outcome.duplicates:
            print(
                f"{outcome.path}: {outcome.duplicates:,} ids seen before (the first record kept)",
                file=sys.stderr,
            )
    if not args.quiet:
        read = sum(1 for f in report.files if f.action != "unchanged")
        rate = report.docs_added / report.seconds if report.seconds > 0 else 0.0
        print(
            f"{db}: {report.total_docs:,} documents from {len(report.files)} file(s); "
            f"{report.docs_added:,} added from {read} file(s) read in {report.seconds:.1f} s ({rate:,.0f} docs/s)"
        )
    return EXIT_FINDINGS if troubled or any(f.bad for f in report.files) else EXIT_OK
