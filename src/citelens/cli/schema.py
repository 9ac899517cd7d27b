"""`citelens schema --spec ID`: print (or write) the JSON Schema of one report of a spec."""

from __future__ import annotations

import argparse
import sys

from citelens.cli import EXIT_OK, EXIT_USAGE


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--spec",
        required=True,
        help="built-in track spec id (see `citelens specs`) or a spec file (FILE#ID to pick one spec)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the schema to FILE (refused when it exists, unless --force) instead of standard output",
    )
    p.add_argument("--force", action="store_true", help="with -o: replace an existing file")


def run(args: argparse.Namespace) -> int:
    from citelens.source.json_text import json_dumps
    from citelens.specs import SpecError, parse_spec_ref
    from citelens.specs.json_schema import report_schema

    try:
        ref = parse_spec_ref(args.spec)
        spec = ref.spec()
    except SpecError as exc:
        print(f"citelens schema: {exc}", file=sys.stderr)
        return EXIT_USAGE
    text = json_dumps(report_schema(spec, ref.spec_id or spec.track), indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    from pathlib import Path

    from citelens.files import FileError, write_file

    target = Path(args.output)
    if target.exists() and not args.force:
        print(f"citelens schema: {target} exists; give --force to replace it", file=sys.stderr)
        return EXIT_USAGE
    try:
        write_file(str(target), text.encode("utf-8"))
    except FileError as exc:
        print(f"citelens schema: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"citelens schema: wrote the {spec.track} report schema to {target}", file=sys.stderr)
    return EXIT_OK
