"""`citelens convert`: a whole run into another track spec's wire shape.

Line order and file layout (JSONL, JSON array, one report) are kept. What the target
cannot express is listed on stderr, positioned on the source. Nothing is written while
any report is broken (unless --keep-going), the input is never overwritten without
--in-place, and every write is a temporary file renamed into place.
"""

from __future__ import annotations

import argparse
import json
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


def _looks_flat(value: object) -> bool:
    return isinstance(value, dict) and "metadata" not in value and "topic_id" in value and "answer" in value


def run(args: argparse.Namespace) -> int:
    from citelens.check import Checker
    from citelens.check.view import ReportView
    from citelens.convert import ConversionError, convert_value
    from citelens.source.document import decode, read_source
    from citelens.source.json_nodes import locate
    from citelens.specs import SpecError, builtin_specs, resolve_spec
    from citelens.topics import TopicFileError, load_topics

    src = Path(args.path)
    try:
        target = resolve_spec(args.to)
        source_spec = resolve_spec(args.source) if args.source else None
        topics = load_topics(args.topics) if args.topics else None
        data = src.read_bytes()
    except (OSError, SpecError, TopicFileError) as exc:
        print(f"citelens convert: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out_path = src if args.in_place else (Path(args.output) if args.output else None)
    if out_path is not None and not args.in_place:
        if out_path.resolve() == src.resolve():
            print("citelens convert: refusing to overwrite the input; use --in-place", file=sys.stderr)
            return EXIT_USAGE
        if out_path.exists() and not args.force:
            print(f"citelens convert: {out_path} exists; use --force to replace it", file=sys.stderr)
            return EXIT_USAGE

    text, problems = decode(data)
    source = read_source(text, problems)
    lines = source.line_index

    def where(offset: int) -> str:
        line, col = lines.position(offset)
        return f"{src}:{line + 1}:{col + 1}"

    broken: list[str] = [f"{where(p.start)}: error[{p.code}] {p.message}" for p in problems]
    if source.syntax is not None:
        broken.append(f"{where(source.syntax.offset)}: error[json_syntax] {source.syntax.message}")
    if source_spec is None and source.items and _looks_flat(source.items[0].value):
        # read it as the built-in spec of the flat layout
        source_spec = next(s for s in builtin_specs().values() if s.layout == "flat")
    converted: list[object] = []
    notes: list[str] = []
    for item in source.items:
        if not item.ok:
            broken.append(
                f"{where(item.syntax.offset)}: error[json_syntax] not valid JSON: {item.syntax.message}"
            )
            continue
        defaults = None
        if topics and isinstance(item.value, dict):
            tid = ReportView.build(item.value, source_spec).topic_id  # as the checker reads it
            topic = topics.get(tid) if tid is not None else None
            if topic is not None and topic.text is not None:
                defaults = {target.narrative_field: topic.text}
        try:
            value, losses = convert_value(item.value, source_spec, target, defaults=defaults)
        except ConversionError as exc:
            broken.append(
                f"{where(item.start)}: error[schema] cannot convert this report: {str(exc).splitlines()[0]}"
            )
            continue
        converted.append(value)
        for note in losses:
            start, _ = locate(item.node(text), note.pointer, "value")
            notes.append(f"{where(start)}: note[{note.code}] {note.message}")

    if not args.quiet:
        for line in notes:
            print(line, file=sys.stderr)
    for line in broken:
        print(line, file=sys.stderr)
    if broken and not args.keep_going:
        print(
            f"citelens convert: {len(broken)} broken report(s); nothing written "
            "(fix them, or use --keep-going)",
            file=sys.stderr,
        )
        return EXIT_FINDINGS

    if source.layout == "array":
        body = json.dumps(converted, ensure_ascii=False, indent=2) + "\n"
    elif source.layout == "object" and len(converted) == 1:
        body = json.dumps(converted[0], ensure_ascii=False, indent=2) + "\n"
    else:
        body = "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in converted)
    if out_path is None:
        sys.stdout.write(body)
    else:
        from citelens.cli.files import write_atomic

        write_atomic(out_path, body.encode("utf-8"))
    after = Checker(target, topics).check_text(body)
    errors = after.count("error")
    print(
        f"converted {len(converted)} report(s) to {target.track}"
        + (f" -> {out_path}" if out_path else "")
        + f"; {len(notes)} note(s); the result has {errors} error(s) against {target.track}"
        + (" (run `citelens check` on it for details)" if errors else ""),
        file=sys.stderr,
    )
    return EXIT_FINDINGS if broken else EXIT_OK
