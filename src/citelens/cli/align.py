"""`citelens align`: the evidence for each answer sentence in a set of source documents.

Exit 0 when the alignment ran (whatever the statuses), 2 for usage and I/O problems
(one line on stderr naming the file and line).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from citelens.cli import EXIT_OK, EXIT_USAGE
from citelens.source.json_scan import LONE_SURROGATE

if TYPE_CHECKING:
    from citelens.align.models import SourceDocument, SpanCitations

PRESETS = ("balanced", "strict", "permissive", "fast")


def configure(p: argparse.ArgumentParser) -> None:
    answer = p.add_mutually_exclusive_group(required=True)
    answer.add_argument("--answer", metavar="TEXT", help="the answer text")
    answer.add_argument("--answer-file", metavar="FILE", help="read the answer from FILE ('-' for stdin)")
    p.add_argument(
        "--sources",
        required=True,
        metavar="SOURCES.jsonl",
        help='JSON lines, one source per line: {"id": ..., "text": ...}',
    )
    p.add_argument(
        "--config", choices=PRESETS, default="balanced", help="threshold preset (default: balanced)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")


class InputError(Exception):
    """A problem with the user's input, reported as one line and exit 2."""


def read_answer(args: argparse.Namespace) -> str:
    if args.answer is not None:
        answer: str = args.answer
        if LONE_SURROGATE.search(answer):  # undecodable bytes in the argument
            raise InputError("--answer: the text is not valid UTF-8")
        return answer
    from citelens.files import FileError, read_bytes

    name = "standard input" if args.answer_file == "-" else args.answer_file
    try:
        return read_bytes(args.answer_file).decode("utf-8")
    except FileError as exc:
        raise InputError(f"{exc.path}: cannot read the answer: {exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: cannot read the answer: not UTF-8 text ({exc.reason})") from None


def read_sources(path: str) -> list[SourceDocument]:
    """``SourceDocument`` per JSONL line; blank lines are skipped. Ids must be unique:
    the alignment names the source of each citation by its id."""
    from citelens.align.models import SourceDocument
    from citelens.files import FileError, read_bytes

    try:
        text = read_bytes(path).decode("utf-8")
    except FileError as exc:
        raise InputError(f"{exc.path}: cannot read the sources: {exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    sources = []
    seen: dict[str, int] = {}  # source id -> the line it is on
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: not valid JSON ({exc.msg}, column {exc.colno})") from None
        except RecursionError:
            raise InputError(f"{path}:{number}: not valid JSON (nested too deeply)") from None
        if not isinstance(item, dict):
            raise InputError(f'{path}:{number}: expected a JSON object with "id" and "text"')
        doc_id, body = item.get("id"), item.get("text")
        if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool):
            raise InputError(f'{path}:{number}: "id" must be a string or a number')
        if not isinstance(body, str):
            raise InputError(f'{path}:{number}: "text" must be a string')
        for key, value in (("id", doc_id), ("text", body)):
            lone = LONE_SURROGATE.search(value) if isinstance(value, str) else None
            if lone:
                raise InputError(
                    f'{path}:{number}: "{key}" holds \\u{ord(lone.group()):04x}, half of a UTF-16 '
                    "surrogate pair with no other half: not a character; remove it"
                )
        first = seen.setdefault(str(doc_id), number)
        if first != number:
            raise InputError(
                f"{path}:{number}: source id {str(doc_id)!r} is already used on line {first}; "
                "a citation to it would be ambiguous, so give each source its own id"
            )
        sources.append(SourceDocument(id=str(doc_id), text=body))
    if not sources:
        raise InputError(f'{path}: no sources (expected JSON lines with "id" and "text")')
    return sources


# -- text output ----------------------------------------------------------------

_STATUS_COLOUR = {"supported": "32", "partial": "33", "unsupported": "31"}


class _Style:
    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def matched(self, text: str) -> str:
        return self.paint(text, "1;32") if self.colour else f"[[{text}]]"


def mark_matches(evidence: str, answer_words: set[str], style: _Style) -> str:
    """The evidence with runs of words that also occur in the answer marked."""
    from citelens.align.marking import mark_matches as marked

    return marked(evidence, answer_words, style.matched)


def render_text(results: list[SpanCitations], style: _Style) -> str:
    from citelens.align.hallucination import compute_hallucination_metrics
    from citelens.align.tokenizer import normalize_token, token_spans

    lines: list[str] = []
    width = len(str(len(results)))
    for number, sc in enumerate(results, start=1):
        span = sc.answer_span
        best = sc.citations[0].score if sc.citations else None
        score = f"{best:.2f}" if best is not None else "  - "
        status = style.paint(f"{sc.status:<11}", _STATUS_COLOUR[sc.status])
        lines.append(f"{number:>{width}}  {status} {score}  {span.text}")
        words = {normalize_token(span.text[s:e]) for s, e in token_spans(span.text)}
        indent = " " * (width + 2)
        for c in sc.citations:
            pieces = [
                mark_matches(e.evidence, words, style)
                for e in sorted(c.evidence_spans, key=lambda e: e.char_start)
            ]
            evidence = " ... ".join(pieces) if pieces else mark_matches(c.evidence, words, style)
            coverage = c.components.get("answer_coverage", 0.0)
            lines.append(
                f"{indent}{c.source_id} [{c.char_start}:{c.char_end}] score {c.score:.2f} coverage {coverage:.0%}"
            )
            lines.append(f"{indent}  {evidence}")
        if not sc.citations:
            if sc.retrieval_support:
                r = sc.retrieval_support[0]
                lines.append(
                    f"{indent}no evidence; nearest passage {r.source_id} [{r.passage_char_start}:{r.passage_char_end}] "
                    f"shares words only (score {r.retrieval_score:.2f})"
                )
            else:
                lines.append(f"{indent}no evidence in the sources")
    metrics = compute_hallucination_metrics(results)
    lines.append(
        f"{metrics.num_spans} span{'s' if metrics.num_spans != 1 else ''}: {metrics.num_supported} supported, {metrics.num_partial} partial, "
        f"{metrics.num_unsupported} unsupported; groundedness {metrics.groundedness_score:.2f}"
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        answer = read_answer(args)
        sources = read_sources(args.sources)
    except InputError as exc:
        print(f"citelens align: {exc}", file=sys.stderr)
        return EXIT_USAGE

    from citelens.align import CitationConfig, align_citations

    results = align_citations(answer, sources, config=CitationConfig.preset(args.config))
    if args.format == "json":
        print(json.dumps([sc.model_dump(mode="json") for sc in results], ensure_ascii=False, indent=2))
    else:
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        if results:
            print(render_text(results, _Style(colour)))
        else:
            print("the answer has no sentences to align")
    return EXIT_OK
