"""`citelens report RUN... -o overview.html`: a run (or several) at a glance, as one
self-contained HTML page (or its data as JSON). The runs are checked exactly as
`citelens check` checks them; the page adds no finding of its own."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from citelens.cli import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from citelens.cli.check import _SupportRuns
    from citelens.overview.model import Overview


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="RUN", help="run files, or directories of run files")
    p.add_argument("--spec", help="built-in track spec id or a spec file (as for `citelens check`)")
    p.add_argument("--topics", help="topics/requests file (as for `citelens check`)")
    p.add_argument(
        "--docs",
        nargs="+",
        action="extend",
        metavar="SOURCE",
        help="where cited documents are looked up (as for `citelens check`); with --support the page "
        "shows the evidence in them",
    )
    p.add_argument(
        "--support",
        action="store_true",
        default=None,
        help="judge every citation: support shares, verdicts and evidence on the page",
    )
    p.add_argument("--executor", default="process", metavar="KIND", help="where judgements run (see check)")
    p.add_argument(
        "--support-cache", metavar="PATH", help="verdict cache file (see check); 'none' for memory only"
    )
    from citelens.cli.check import _judge_options

    _judge_options(p)  # the support judge, as for `citelens check --support`
    p.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: standard output)")
    p.add_argument("--force", action="store_true", help="with -o: replace an existing file")
    p.add_argument(
        "--format", choices=("html", "json"), default="html", help="html: the page (default); json: its data"
    )
    p.add_argument("--title", default="CiteLens run overview", help="the page's title")
    p.add_argument(
        "--docs-base",
        metavar="URL",
        help="link the finding codes to the rule docs under URL (.../check/rules/) instead of the "
        "installed files",
    )


def run(args: argparse.Namespace) -> int:
    from citelens.cli.check import _absolute_sources, _SupportRuns
    from citelens.config import ConfigError
    from citelens.files import FileError
    from citelens.specs import SpecError
    from citelens.topics import TopicFileError

    for flag, value in (("--spec", args.spec), ("--topics", args.topics)):
        if value is not None and not value.strip():
            print(f"citelens report: {flag} is empty", file=sys.stderr)
            return EXIT_USAGE
    target = Path(args.output) if args.output else None
    if target is not None and target.exists() and not args.force:
        print(f"citelens report: {target} exists; give --force to replace it", file=sys.stderr)
        return EXIT_USAGE
    cli = {
        "spec": args.spec,
        "topics": str(Path(args.topics).resolve()) if args.topics else None,
        "corpora": _absolute_sources(args.docs) if args.docs else None,
        "support": args.support,
    }
    try:
        support_runs = _SupportRuns(args)
    except (OSError, ValueError) as exc:
        print(f"citelens report: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        overview, unusable = _overviews(args, cli, support_runs)
    except (SpecError, TopicFileError, ConfigError) as exc:
        print(f"citelens report: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        support_runs.close()
    if args.format == "json":
        from citelens.overview.model import as_json

        text = as_json(overview.to_data(), indent=1) + "\n"
    else:
        from citelens.overview.page import render_page

        text = render_page(overview)
    if target is None:
        sys.stdout.write(text)
    else:
        from citelens.files import write_file

        try:
            write_file(str(target), text.encode("utf-8"))
        except FileError as exc:
            print(f"citelens report: {exc}", file=sys.stderr)
            return EXIT_USAGE
        reports = sum(r.reports for r in overview.runs)
        print(
            f"citelens report: {len(overview.runs)} run(s), {reports} report(s) -> {target}", file=sys.stderr
        )
    return EXIT_USAGE if unusable else EXIT_OK


def _overviews(
    args: argparse.Namespace, cli: dict[str, object], support_runs: _SupportRuns
) -> tuple[Overview, int]:
    """Each run checked as `citelens check` does, then summed up (files that cannot be
    read are named on standard error and counted)."""
    from citelens.session import Workspace
    from citelens.session.overview import overview_of

    workspace = Workspace(cli=cli, checker_options={"cache_size": 0, "workers": 1}, support_runs=support_runs)
    try:
        named = overview_of(
            workspace,
            args.paths,
            title=args.title,
            docs_base=args.docs_base,
            spec_label=lambda path: args.spec or workspace.settings_for(path).spec,
        )
    finally:
        workspace.close_sources()
    for problem in named.problems:
        print(f"citelens report: {problem}", file=sys.stderr)
    return named.overview, len(named.problems)
