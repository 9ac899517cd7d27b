"""`citelens check`: validate runs, print findings, exit 0 (clean) / 1 (errors) / 2 (usage, I/O)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from citelens.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="run files (JSONL, JSON array or one report); a directory means the files directly inside it",
    )
    p.add_argument(
        "--spec",
        help="built-in track spec id (see `citelens specs`) or a spec file "
        "(YAML/TOML; FILE#ID to pick one spec)",
    )
    p.add_argument(
        "--topics",
        help="topics/requests file (TSV or JSON lines): topic coverage, "
        "exact narratives and per-topic length limits",
    )
    p.add_argument("--strict", action="store_true", default=None, help="report every finding as an error")
    p.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text")
    p.add_argument("--statistics", action="store_true", help="print counts per code instead of findings")
    p.add_argument("--fix", action="store_true", help="apply the safe fixes in place")
    p.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix/--diff: also apply fixes that change content (e.g. trimming an over-long answer)",
    )
    p.add_argument("--diff", action="store_true", help="show the fixes as a unified diff; write nothing")


def expand_paths(raw: list[str]) -> list[Path]:
    """Files named on the command line; a directory contributes its visible files, sorted."""
    out: list[Path] = []
    for item in raw:
        p = Path(item)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
            if not files:
                raise OSError(f"{item}: the directory holds no files")
            out.extend(files)
        elif p.is_file():
            out.append(p)
        else:
            raise OSError(f"{item}: no such file or directory")
    return out


def run(args: argparse.Namespace) -> int:
    import gc

    # A short-lived process holding thousands of decoded reports: the cyclic collector
    # would re-walk them again and again for no garbage (about a fifth of the run time).
    gc.disable()
    from citelens.config import ConfigError
    from citelens.specs import SpecError
    from citelens.topics import TopicFileError

    cli = {
        "spec": args.spec,
        "strict": args.strict,
        "topics": str(Path(args.topics).resolve()) if args.topics else None,
    }
    from citelens.session.workspace import Workspace

    # the one-shot run: no per-report cache, big files checked on several processes
    workspace = Workspace(cli=cli, checker_options={"cache_size": 0, "workers": min(os.cpu_count() or 1, 4)})
    results = []
    try:
        files = expand_paths(args.paths)
        for path in files:
            results.append(workspace.check_file(path))
    except (OSError, SpecError, TopicFileError, ConfigError) as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE

    if args.fix or args.diff:
        from citelens.cli.fixing import apply_fixes

        try:
            results = apply_fixes(
                results,
                workspace,
                write=args.fix and not args.diff,
                unsafe=args.unsafe_fixes,
                stream=sys.stdout,
            )
        except (OSError, SpecError, TopicFileError, ConfigError) as exc:
            print(f"citelens check: {exc}", file=sys.stderr)
            return EXIT_USAGE

    from citelens.check.catalog import summary as rule_summary
    from citelens.cli.output import Summary, render_statistics, summary_line, write_output

    out = sys.stdout
    if args.statistics:
        out.write(render_statistics(results, rule_summary))
        out.write(summary_line(Summary.of(results)) + "\n")
    elif not args.diff:
        write_output(args.format, results, out, rule_summary=rule_summary)
    out.flush()
    return EXIT_FINDINGS if any(r.count("error") for r in results) else EXIT_OK
