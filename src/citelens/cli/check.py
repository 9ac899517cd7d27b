"""`citelens check`: validate runs, print findings, exit 0 (clean) / 1 (errors) / 2 (usage, I/O)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from citelens.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from citelens.config.settings import Settings
    from citelens.corpus import SourceChain
    from citelens.session import Workspace
    from citelens.support.cache import VerdictCache
    from citelens.support.run import SupportRun


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="run files (JSONL, JSON array or one report); a directory is searched for runs "
        "(sub-directories too; topics, corpus and excluded files are skipped)",
    )
    p.add_argument(
        "--no-respect-gitignore",
        dest="respect_gitignore",
        action="store_false",
        help="also search the files .gitignore ignores",
    )
    p.add_argument(
        "--show-files",
        action="store_true",
        help="print the run files the paths hold (and why each look-alike is skipped); check nothing",
    )
    p.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings that apply to each named file and where each came from; check nothing",
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
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress lines on stderr (looking through a corpus folder, judging support)",
    )
    p.add_argument("--fix", action="store_true", help="apply the safe fixes in place")
    p.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix/--diff: also apply fixes that change content (e.g. trimming an over-long answer)",
    )
    p.add_argument("--diff", action="store_true", help="show the fixes as a diff; write nothing")
    p.add_argument(
        "--diff-format",
        choices=("auto", "unified", "tokens"),
        default="auto",
        help="with --diff: unified (what `patch -p1` applies), tokens (only the changed tokens of "
        "each line, with context) or auto (tokens on a terminal, unified otherwise; the default)",
    )
    p.add_argument(
        "--docs",
        nargs="+",
        action="extend",
        metavar="SOURCE",
        help="where the cited documents are looked up, for unknown_document and --support: corpus "
        "files (JSON lines such as {id, text} per line, .gz/.zst) or folders, index:PATH, irds:DATASET, "
        "http(s)://HOST/v1/INDEX; replaces `corpora` from citelens.toml",
    )
    # the former support-only option: the same as --docs FILE (deprecated, hidden)
    p.add_argument("--documents", dest="legacy_documents", action="append", help=argparse.SUPPRESS)

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
        "--support-cache",
        metavar="PATH",
        help="verdict cache file (default: support.sqlite in $CITELENS_CACHE_DIR, else $XDG_CACHE_HOME/citelens, else ~/.cache/citelens); "
        "'none' for memory only",
    )
    _judge_options(p)


def _judge_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("support judges (docs/support.md: what each one knows)")
    g.add_argument(
        "--judge",
        choices=("lexical", "llm", "nli", "cascade"),
        help="who judges support: lexical (word matching, the default), llm (a chat model, the TREC RAG "
        "2024 prompt), nli (a local ONNX cross-encoder), cascade (lexical, the uncertain band to the model); "
        "replaces support_judge from citelens.toml",
    )
    g.add_argument(
        "--llm-endpoint", metavar="URL", help="OpenAI-compatible API base, e.g. http://localhost:8000/v1"
    )
    g.add_argument("--llm-model", metavar="NAME", help="the model name the endpoint serves")
    g.add_argument(
        "--llm-key-env",
        metavar="VAR",
        help="the name of the environment variable holding the API key (the key itself is never printed)",
    )
    g.add_argument(
        "--judge-prompt",
        metavar="NAME|FILE",
        help="the prompt: trec-rag-2024 (default), a prompt TOML file, or a text file with {statement} and {citation}",
    )
    g.add_argument(
        "--judge-concurrency", type=int, default=4, metavar="N", help="model calls at a time (default 4)"
    )
    g.add_argument(
        "--judge-timeout", type=float, default=60.0, metavar="S", help="seconds per model call (default 60)"
    )
    g.add_argument(
        "--judge-retries", type=int, default=4, metavar="N", help="retries of a failed call (default 4)"
    )
    g.add_argument(
        "--nli-model", metavar="PATH", help="folder with model.onnx and tokenizer.json (citelens[nli])"
    )
    g.add_argument(
        "--explain",
        action="store_true",
        help="with --support (text output): explain each judged citation: the best passage with its matched "
        "words marked, the words and numbers not found, clauses not covered, which document has which part",
    )
    g.add_argument(
        "--dry-run",
        action="store_true",
        help="with a model judge: count the model calls and prompt tokens the check needs; send nothing",
    )


def _absolute_sources(specs: list[str]) -> list[str]:
    """Document sources as given, with a relative file or folder made absolute (from here)."""
    from citelens.corpus import split_spec
    from citelens.corpus.opening import option_problem

    out = []
    for spec in specs:
        if problem := option_problem(spec):
            raise UsageError(f"--docs {split_spec(spec)[0]}: {problem}")
        location, _ = split_spec(spec)
        bare = location.removeprefix("index:")
        if "://" not in location and not location.startswith("irds:") and not Path(bare).is_absolute():
            spec = spec.replace(bare, str(Path(bare).resolve()), 1)
        out.append(spec)
    return out


#: how standard input (`-`) is named in findings
STDIN_NAME = "<stdin>"


class UsageError(Exception):
    """A command line that cannot run: one line on stderr, exit 2."""


def _checked_options(args: argparse.Namespace) -> dict[str, object]:
    """The command-line settings; an empty --spec or --topics is refused, not dropped."""
    for flag, value in (("--spec", args.spec), ("--topics", args.topics)):
        if value is not None and not value.strip():
            raise UsageError(
                f"{flag} is empty; give a spec id or file"
                if flag == "--spec"
                else f"{flag} is empty; give a topics file"
            )
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"--statistics prints text or json, not {args.format}")
    if args.fix and not args.diff and "-" in args.paths:
        raise UsageError("--fix cannot rewrite standard input; use --diff to see the fixes")
    docs = list(args.docs or [])
    if args.legacy_documents:
        print("citelens check: --documents is deprecated; use --docs (the same sources)", file=sys.stderr)
        docs += args.legacy_documents
    return {
        "spec": args.spec,
        "strict": args.strict,
        "topics": str(Path(args.topics).resolve()) if args.topics else None,
        "corpora": _absolute_sources(docs) if docs else None,
        "support": args.support,
        "support_judge": getattr(args, "judge", None),
    }


class _SupportRuns:
    """The SupportRuns of this command: one per threshold set, sharing one verdict cache."""

    def __init__(self, args: argparse.Namespace) -> None:
        from citelens.support.executor import parse_executor

        parse_executor(args.executor)  # a bad value is a usage error before any work
        if args.judge_concurrency < 1 or args.judge_retries < 0 or args.judge_timeout <= 0:
            raise ValueError(
                "--judge-concurrency must be at least 1, --judge-retries at least 0, --judge-timeout above 0"
            )
        self.args = args
        self.cache: VerdictCache | None = None
        self.runs: list[SupportRun] = []
        self._models: dict[str, tuple[object, bool]] = {}  # judge and model table -> backend
        self.notes: list[str] = []

    def __call__(self, settings: Settings, sources: SourceChain | None) -> SupportRun:
        from citelens.support.cache import VerdictCache
        from citelens.support.document_text import CorpusDocuments
        from citelens.support.executor import terminal_progress
        from citelens.support.run import SupportRun
        from citelens.support.settings import default_settings

        if self.cache is None:
            self.cache = VerdictCache(_cache_path(self.args.support_cache), warn=_warn)
        model, cascade = self._model(settings)
        run = SupportRun(
            settings=default_settings().with_overrides(dict(settings.support_thresholds)),
            cache=self.cache,
            executor=self.args.executor,
            progress=None if getattr(self.args, "quiet", False) else terminal_progress(),
            lookup=CorpusDocuments(settings.corpora, chain=sources) if sources is not None else None,
            model=model,  # type: ignore[arg-type]
            cascade=cascade,
            concurrency=self.args.judge_concurrency,
            dry_run=self.args.dry_run,
        )
        self.runs.append(run)
        return run

    def _model(self, settings: Settings) -> tuple[object, bool]:
        """The model backend of these settings' judge (one per judge for the command)."""
        from citelens.support.backends import ModelOptions, model_backend
        from citelens.support.errors import JudgeError

        judge = settings.support_judge
        slot = f"{judge}\x00{sorted(settings.support_model.items())}"
        if slot not in self._models:
            a = self.args
            options = ModelOptions.from_environment(
                settings.support_model,
                endpoint=a.llm_endpoint,
                model=a.llm_model,
                key_env=a.llm_key_env,
                prompt=a.judge_prompt,
                timeout=a.judge_timeout,
                retries=a.judge_retries,
                nli_model=a.nli_model,
            )
            try:
                self._models[slot] = model_backend(judge, options)
            except JudgeError as exc:
                if settings.origin("support_judge") == "command line":
                    raise
                # a project file asked for a model the user has not set up: say so, judge lexically
                self.notes.append(
                    f"support_judge = {judge!r} ({settings.origin('support_judge')}): {exc}; judged lexically"
                )
                self._models[slot] = (None, False)
        return self._models[slot]

    def summary(self) -> list[str]:
        """What the model judges did (or, in a dry run, would do), for stderr."""
        from citelens.support.model_judge import Outcome

        lines = list(self.notes)
        total = Outcome()
        names = sorted({r.model.id for r in self.runs if r.model is not None})
        for run in self.runs:
            if run.outcome is not None:
                total.planned += run.outcome.planned
                total.tokens += run.outcome.tokens
                total.done += run.outcome.done
                total.failed += run.outcome.failed
                total.cancelled = total.cancelled or run.outcome.cancelled
        if not names:
            return lines
        who = ", ".join(names)
        if self.args.dry_run:
            lines.append(
                f"dry run: {total.planned:,} calls to {who} (about {total.tokens:,} prompt tokens); "
                "nothing was sent (the findings are the lexical judge's)"
            )
        else:
            line = f"{who}: {total.done:,} of {total.planned:,} calls answered"
            if total.failed:
                line += (
                    f"; {total.failed:,} failed after the retries (those citations keep the lexical verdict)"
                )
            if total.cancelled:
                line += "; cancelled (run again to resume: answered calls are cached)"
            lines.append(line)
        return lines

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()


def _warn(message: str) -> None:
    print(f"citelens check: warning: {message}", file=sys.stderr)


def _cache_path(raw: str | None) -> Path | None:
    if raw == "none":
        return None
    if raw:
        return Path(raw)
    from citelens.files.user_cache import cache_root

    return cache_root() / "support.sqlite"


def _print_track_hint(workspace: Workspace, path: str, shown: str, data: bytes, errors: int) -> None:
    """One line on stderr when the run looks like a track other than the one it was
    checked as (or no spec is configured)."""
    from citelens.session.track_hint import track_hint

    settings = workspace.settings_for(Path.cwd() / shown if path == "-" else path)
    hint = track_hint(settings, data[:262144].decode("utf-8", errors="replace"), errors)
    if hint is not None:
        print(f"citelens check: {shown}: {hint}", file=sys.stderr)


def _diff_format(chosen: str, stream: object) -> str:
    """`auto`: the readable token view for a person at a terminal, the unified diff
    (which `patch` applies) for a pipe or a file."""
    if chosen != "auto":
        return chosen
    isatty = getattr(stream, "isatty", None)
    return "tokens" if isatty and isatty() else "unified"


def run(args: argparse.Namespace) -> int:
    from citelens.cli.walk_progress import walk_progress

    with walk_progress(quiet=args.quiet):  # --docs DIR: the walk of a big folder is shown
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    import gc

    # A short-lived process holding thousands of decoded reports: the cyclic collector
    # would re-walk them again and again for no garbage (about a fifth of the run time).
    gc.disable()
    from citelens.config import ConfigError
    from citelens.files import FileError, read_bytes
    from citelens.session import Workspace
    from citelens.session.run_files import find_runs
    from citelens.specs import SpecError
    from citelens.topics import TopicFileError

    try:
        cli = _checked_options(args)
    except UsageError as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        support_runs = _SupportRuns(args)
    except (OSError, ValueError) as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    # the one-shot run: no per-report cache, big files checked on several processes
    workspace = Workspace(
        cli=cli,
        checker_options={"cache_size": 0, "workers": min(os.cpu_count() or 1, 4)},
        support_runs=support_runs,
    )
    if args.show_settings:
        from citelens.cli.inspect_files import show_settings

        return show_settings(workspace, args.paths, sys.stdout)
    named = find_runs(workspace, args.paths, respect_gitignore=args.respect_gitignore)
    unusable = len(named.problems)
    for problem in named.problems:
        print(f"citelens check: {problem}", file=sys.stderr)
    if args.show_files:
        from citelens.cli.inspect_files import show_files

        return show_files(named, sys.stdout)
    results = []
    try:
        for path in named.paths:
            shown = STDIN_NAME if path == "-" else path
            # --statistics marks what --fix would repair: it needs the findings' fixes
            checker = workspace.checker_for(
                Path.cwd() / shown if path == "-" else path, fixes=args.statistics
            )
            for message in workspace.notices:  # what an untrusted project file may not do
                print(f"citelens check: {message}", file=sys.stderr)
            workspace.notices.clear()
            try:
                data = read_bytes(path)
            except FileError as exc:  # one unreadable file: say so, check the others
                print(f"citelens check: {exc}", file=sys.stderr)
                unusable += 1
                continue
            results.append(checker.check_bytes(data, shown))
            if args.format == "text" and not args.diff:
                _print_track_hint(workspace, path, shown, data, results[-1].count("error"))
            if args.fix or args.diff:
                from citelens.cli.fixing import apply_fixes

                try:
                    results[-1] = apply_fixes(
                        results[-1],
                        data,
                        workspace,
                        write=args.fix and not args.diff,
                        unsafe=args.unsafe_fixes,
                        stream=sys.stdout,
                        diff_format=_diff_format(args.diff_format, sys.stdout),
                    )
                except FileError as exc:  # not written: the findings still count and print
                    print(f"citelens check: {exc}", file=sys.stderr)
                    unusable += 1
    except (SpecError, TopicFileError, ConfigError) as exc:
        print(f"citelens check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:  # a judge that cannot be set up, or an endpoint that cannot serve
        from citelens.support.errors import JudgeError

        if not isinstance(exc, JudgeError):
            raise
        print(f"citelens check: {exc}", file=sys.stderr)
        support_runs.close()
        return EXIT_USAGE

    from citelens.check.catalog import summary as rule_summary
    from citelens.cli.output import Summary, render_statistics, summary_line, write_output

    out = sys.stdout
    if args.statistics:
        if args.format == "json":
            from citelens.cli.output import render_statistics_json

            out.write(render_statistics_json(results, rule_summary))
        else:
            out.write(render_statistics(results, rule_summary))
            out.write(summary_line(Summary.of(results)) + "\n")
    elif not args.diff:
        write_output(args.format, results, out, rule_summary=rule_summary)
    if args.format == "text" and not args.diff and any(r.support is not None for r in results):
        from citelens.support.summary import text_lines

        for r in results:
            if r.support is not None:
                out.write("".join(f"support: {line}\n" for line in text_lines(r.path, r.support)))
        if args.explain:
            import shlex

            from citelens.support.explain import explain_lines

            # the documents of --docs can be opened with `citelens show`; embedded ones are in the report
            show = "--docs " + " ".join(shlex.quote(d) for d in args.docs) if args.docs else None
            for r in results:
                if r.support is not None:
                    lines = explain_lines(r.path, r.support.report_documents(), show)
                    out.write("".join(f"explain: {line}\n" for line in lines))
    for line in support_runs.summary():
        print(f"support: {line}", file=sys.stderr)
    support_runs.close()
    workspace.close_sources()
    out.flush()
    if unusable:
        return EXIT_USAGE
    return EXIT_FINDINGS if any(r.count("error") for r in results) else EXIT_OK
