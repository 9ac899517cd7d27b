"""`citelens show DOC_ID [--docs SOURCE...]`: print a document (title, source, text) as the sources have it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citelens.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("doc_ids", nargs="+", metavar="DOC_ID", help="document ids to show")
    p.add_argument(
        "--docs",
        nargs="+",
        action="extend",
        metavar="SOURCE",
        help="document sources: corpus files/folders, index:PATH, irds:DATASET, http(s)://HOST/v1/INDEX "
        "(default: `corpora` from citelens.toml)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--at",
        type=int,
        metavar="OFFSET",
        help="print the text from this character on (the offsets `check --support --explain` gives)",
    )


def _configured_corpora() -> tuple[list[str], Path | None]:
    """`corpora` from the project settings found from the current folder, if any."""
    try:
        from citelens.config import settings_for

        settings = settings_for(Path.cwd() / "_")
    except Exception:
        return [], None
    for message in settings.withheld:  # what an untrusted project file may not do
        print(f"citelens show: {message}", file=sys.stderr)
    base = settings.source.parent if settings.source is not None else None
    return list(settings.corpora), base


def run(args: argparse.Namespace) -> int:
    from citelens.corpus import open_sources
    from citelens.source.json_text import json_dumps

    specs = list(args.docs or [])
    base: Path | None = Path.cwd()
    if not specs:
        specs, configured_base = _configured_corpora()
        base = configured_base or base
    if not specs:
        print(
            "citelens show: no document sources: name them with --docs (or `corpora` in citelens.toml)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    chain = open_sources(specs, base_dir=base)
    try:
        answer = chain.get_many(args.doc_ids)
    finally:
        chain.close()
    status = EXIT_OK
    shown: list[dict[str, object]] = []
    for n, doc_id in enumerate(args.doc_ids):
        doc = answer.documents.get(doc_id)
        if doc is None:
            status = EXIT_FINDINGS
            why = answer.unanswered.get(doc_id)
            message = f"could not be looked up: {why}" if why else f"not found in {chain.describe()}"
            if args.format == "json":
                shown.append({"id": doc_id, "found": False, "message": message})
            else:
                print(f"citelens show: {doc_id}: {message}", file=sys.stderr)
            continue
        if args.format == "json":
            shown.append({"found": True, **doc.as_json()})
            continue
        if n:
            print()
        if doc.stands_in_for:
            print(f"{doc_id}: this segment is not available; its parent document {doc.id} stands in for it")
        print(f"id:     {doc.id}")
        if doc.title:
            print(f"title:  {doc.title}")
        if doc.url:
            print(f"url:    {doc.url}")
        print(f"source: {doc.origin}")
        print()
        if args.at is not None and 0 < args.at < len(doc.text):
            print(f"[… from character {args.at} of {len(doc.text)}]")
            print(doc.text[args.at :])
        else:
            print(doc.text)
    if args.format == "json":
        print(json_dumps(shown if len(args.doc_ids) > 1 else shown[0], indent=2))
    return status
