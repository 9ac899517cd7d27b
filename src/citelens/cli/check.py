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
    g = p.add_argument_group("support (does each cited document support its sentence?)")
    g.add_argument(
        "--support",
        action="store_true",
        default=None,
        help="judge every citation: citation_unsupported / citation_weak findings and per-report shares",
    )
    g.add_argument(
        "--executor",
        default="process",
        metavar="KIND",
        help="where judgements run: process (all cores, default), serial, ray or ray:ADDRESS (citelens[ray])",
    )
    g.add_argument(
        "--documents",
        metavar="FILE",
        help="JSON-lines documents ({id, text}) for citations the reports do not embed",
    )
    g.add_argument(
        "--support-cache",
        metavar="PATH",
        help="verdict cache file (default: $CITELENS_CACHE_DIR or ~/.cache/citelens, support.sqlite); "
        "'none' for memory only",
    )


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


class _Checkers:
    """One Checker per distinct resolved settings (files may sit under different configs)."""

    def __init__(self, fixes: bool = False, support_run=None) -> None:
        self._by_key: dict[tuple, object] = {}
        self.fixes = fixes
        self.support_run = support_run  # made on first use by a file whose settings turn support on

    def for_settings(self, settings):
        from citelens.check import Checker
        from citelens.specs import resolve_spec
        from citelens.topics import load_topics

        key = (
            settings.spec,
            str(settings.topics),
            settings.strict,
            tuple(sorted(settings.severity.items())),
            settings.support,
            tuple(sorted(settings.support_thresholds.items())),
        )
        if key not in self._by_key:
            spec = resolve_spec(settings.spec) if settings.spec else None
            topics = load_topics(settings.topics) if settings.topics else None
            self._by_key[key] = Checker(
                spec,
                topics,
                strict=settings.strict,
                overrides=settings.severity,
                fixes=self.fixes,
                cache_size=0 if not self.fixes else 20000,
                workers=min(os.cpu_count() or 1, 4),
                support=self.support_run(settings.support_thresholds)
                if settings.support and self.support_run
                else None,
            )
        return self._by_key[key]


class _SupportFactory:
    """Makes the one SupportRun of this command (shared by its checkers) when first needed."""

    def __init__(self, args: argparse.Namespace) -> None:
        from citelens.support.executor import parse_executor

        parse_executor(args.executor)  # a bad value is a usage error before any work
        self.args = args
        self.made = None
        self.documents: dict[str, str] = {}
        if args.documents:
            from citelens.support.documents import read_documents_file

            self.documents = read_documents_file(args.documents)

    def __call__(self, thresholds=None):
        """The SupportRun for these threshold overrides (one cache file shared by all)."""
        from citelens.support.cache import VerdictCache
        from citelens.support.executor import terminal_progress
        from citelens.support.run import SupportRun
        from citelens.support.settings import default_settings

        if self.made is None:
            self.made = SupportRun(
                documents=self.documents,
                cache=VerdictCache(_cache_path(self.args.support_cache)),
                executor=self.args.executor,
                progress=terminal_progress(),
            )
        if not thresholds:
            return self.made
        return SupportRun(
            settings=default_settings().with_overrides(dict(thresholds)),
            documents=self.documents,
            cache=self.made.cache,
            executor=self.args.executor,
            progress=self.made.progress,
        )


def _cache_path(raw: str | None) -> Path | None:
    if raw == "none":
        return None
    if raw:
        return Path(raw)
    base = os.environ.get("CITELENS_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "citelens")
    return Path(base) / "support.sqlite"


def _support_factory(args: argparse.Namespace) -> _SupportFactory:
    return _SupportFactory(args)


def run(args: argparse.Namespace) -> int:
    import gc

    # A short-lived process holding thousands of decoded reports: the cyclic collector
    # would re-walk them again and again for no garbage (about a fifth of the run time).
    gc.disable()
    from citelens.config import ConfigError, settings_for
    from citelens.specs import SpecError
    from citelens.topics import TopicFileError

    cli = {
        "spec": args.spec,
        "strict": args.strict,
        "topics": str(Path(args.topics).resolve()) if args.topics else None,
        "support": args.support,
    }
    try:
        support_run = _support_factory(args)
    except (OSError, ValueError) as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    checkers = _Checkers(fixes=args.fix or args.diff, support_run=support_run)
    results, used = [], []
    try:
        files = expand_paths(args.paths)
        for path in files:
            settings = settings_for(path).merged_with(cli)
            checker = checkers.for_settings(settings)
            used.append(checker)
            results.append(checker.check_path(path))
    except (OSError, SpecError, TopicFileError, ConfigError) as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE

    if args.fix or args.diff:
        from citelens.cli.fixing import apply_fixes

        try:
            results = apply_fixes(
                results, used, write=args.fix and not args.diff, unsafe=args.unsafe_fixes, stream=sys.stdout
            )
        except OSError as exc:
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
    if args.format == "text" and not args.diff:
        from citelens.support.summary import text_lines

        for r in results:
            if r.support is not None:
                out.write("".join(f"support: {line}\n" for line in text_lines(r.path, r.support)))
    if support_run is not None and support_run.made is not None:
        support_run.made.cache.close()
    out.flush()
    return EXIT_FINDINGS if any(r.count("error") for r in results) else EXIT_OK
