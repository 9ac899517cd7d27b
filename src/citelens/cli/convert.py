"""`citelens convert`: a whole run into another track spec's wire shape.

Line order and file layout (JSONL, JSON array, one report) are kept. What the target
cannot express is listed on stderr, positioned on the source. Nothing is written while
any report is broken (unless --keep-going), the input is never overwritten without
--in-place, and every write is a temporary file renamed into place.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citelens.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="run file: JSONL, a JSON array of reports, or one report")
    p.add_argument("--to", required=True, metavar="SPEC", help="target track spec id or spec file")
    p.add_argument(
        "--from",
        dest="source",
        metavar="SPEC",
        help="how to read the input (e.g. rag24 for the flat 2024 layout); detected when omitted",
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="OUT", help="write here (default: standard output)")
    out.add_argument("--in-place", action="store_true", help="replace PATH with the converted run")
    p.add_argument("--force", action="store_true", help="allow -o to replace an existing file")
    p.add_argument("--topics", help="topics file: fills a missing narrative with the exact topic text")
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="convert and write the good reports even if some are broken (they are listed)",
    )
    p.add_argument("--quiet", action="store_true", help="do not list what the conversion lost")


def run(args: argparse.Namespace) -> int:
    from citelens.check import Checker
    from citelens.files import FileError, read_bytes, write_file
    from citelens.files.snapshot import Snapshot
    from citelens.session import Workspace
    from citelens.source.edits import apply_edits
    from citelens.specs import SpecError, resolve_spec
    from citelens.topics import TopicFileError, load_topics

    src = Path(args.path)
    try:
        target = resolve_spec(args.to)
        source_spec = resolve_spec(args.source) if args.source else None
        topics = load_topics(args.topics) if args.topics else None
        # what the file written over was, so that a change to it meanwhile is not lost
        read_as = Snapshot.of(src, read_bytes(src)) if args.in_place else None
        doc = Workspace().open_file(src)
    except (OSError, SpecError, TopicFileError) as exc:
        print(f"citelens convert: {exc}", file=sys.stderr)
        return EXIT_USAGE
    assert target is not None
    out_path = src if args.in_place else (Path(args.output) if args.output else None)
    if out_path is not None and not args.in_place:
        if out_path.exists() and out_path.resolve() == src.resolve():
            print("citelens convert: refusing to overwrite the input; use --in-place", file=sys.stderr)
            return EXIT_USAGE
        if out_path.is_file() and not args.force:  # a pipe or /dev/stdout is written to, not replaced
            print(f"citelens convert: {out_path} exists; use --force to replace it", file=sys.stderr)
            return EXIT_USAGE
        if out_path.is_file():
            try:
                read_as = Snapshot.of(out_path, read_bytes(out_path))
            except OSError as exc:
                print(f"citelens convert: {FileError.of(out_path, exc, 'cannot read it')}", file=sys.stderr)
                return EXIT_USAGE

    lines = doc.line_index

    def where(offset: int) -> str:
        line, col = lines.position(offset)
        return f"{src}:{line + 1}:{col + 1}"

    conversion = doc.convert_edits(target, source=source_spec, topics=topics)
    notes = [f"{where(n.start)}: note[{n.code}] {n.message}" for n in conversion.notes]
    broken = [
        f"{where(b.start)}: error[{b.code}] {b.message}"
        for b in sorted(conversion.broken, key=lambda b: (b.start, b.end))
    ]
    if not args.quiet:
        for line in notes:
            print(line, file=sys.stderr)
    for line in broken:
        print(line, file=sys.stderr)
    if broken and not args.keep_going:
        print(
            f"citelens convert: {_count(broken, 'problem')} in the input; nothing written "
            "(fix them, or use --keep-going)",
            file=sys.stderr,
        )
        return EXIT_FINDINGS

    body = apply_edits(doc.text, conversion.edits)
    if out_path is None:
        sys.stdout.write(body)
    else:
        try:
            write_file(out_path, body.encode("utf-8"), unchanged_since=read_as)
        except FileError as exc:
            print(f"citelens convert: {exc}", file=sys.stderr)
            return EXIT_USAGE
    after = Checker(target, topics).check_text(body)
    errors = after.count("error")
    print(
        f"converted {conversion.converted} report(s) to {target.track}"
        + (f" -> {out_path}" if out_path else "")
        + f"; {len(notes)} note(s); the result has {errors} error(s) against {target.track}"
        + (" (run `citelens check` on it for details)" if errors else ""),
        file=sys.stderr,
    )
    return EXIT_FINDINGS if broken else EXIT_OK


def _count(items: list[str], noun: str) -> str:
    return f"{len(items)} {noun}" + ("" if len(items) == 1 else "s")
