"""What a support verdict rests on, in words: for each citation the best passage whole
with the matched words marked, the words found only as the document's topic words, the
content words not found, the numbers missing or
counting something else, the clauses not covered, and, for a sentence citing several
documents, which document has which part. Read from the JSON form of the verdicts
(`report_documents`), so a re-check served from the cache of finished files explains the
same way. Used by `citelens check --support --explain` and the editor's hover."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

#: how the marks around matched words look: plain text, and Markdown (the hover)
TEXT_MARKS = ("[", "]")
MARKDOWN_MARKS = ("**", "**")


def marked(
    passage: Mapping[str, Any], evidence: Sequence[Mapping[str, Any]], marks: tuple[str, str] = TEXT_MARKS
) -> str:
    """The passage's text with each evidence span inside it between `marks`."""
    start, text = passage["start"], passage["text"]
    out: list[str] = []
    at = 0
    for e in sorted(evidence, key=lambda e: e["start"]):
        a, b = max(e["start"] - start, at), min(e["end"] - start, len(text))
        if a >= b:
            continue
        out += (text[at:a], marks[0], text[a:b], marks[1])
        at = b
    out.append(text[at:])
    return " ".join("".join(out).split())


def verdict_words(c: Mapping[str, Any]) -> str:
    """The verdict and what its judge knows, in one phrase."""
    verdict = c["verdict"]
    if verdict == "unchecked":
        return f"unchecked ({c.get('reason')})"
    judge = c.get("judge", "lexical")
    if judge != "lexical":
        answer = f", answered {c['answer'].strip()[:40]!r}" if c.get("answer") else ""
        return f"{verdict} ({judge}{answer}; evidence below is the word matcher's)"
    found = f"{c['matched_terms']} of {c['content_terms']} content words found, score {c['score']:.2f}"
    if verdict == "supported":
        return f"supported (lexical: most words are there, in every clause, every number too; meaning not checked; {found})"
    tier = ", high confidence" if c.get("tier") == "high" else ""
    return f"{verdict} (lexical{tier}: {found}; meaning not checked)"


def citation_lines(c: Mapping[str, Any], show_command: str | None = None) -> list[str]:
    """The explanation of one citation, one fact a line; `show_command`: the options of
    `citelens show` that find the document (None: it is embedded in the report)."""
    lines = [f"{c['doc_id']}: {verdict_words(c)}"]
    passage = c.get("passage")
    if passage:
        lines.append(
            f"  passage (characters {passage['start']}-{passage['end']}): “{marked(passage, c['evidence'])}”"
        )
        if show_command:
            lines.append(
                f"  open: citelens show {shlex.quote(c['doc_id'])} --at {passage['start']} {show_command}"
            )
    if c.get("topic_terms"):
        lines.append(
            f"  found only as the document's topic words (it uses them throughout): {', '.join(c['topic_terms'])}"
        )
    if c.get("missing_terms"):
        lines.append(f"  not found: {', '.join(c['missing_terms'])}")
    if c.get("missing_numbers"):
        lines.append(f"  numbers not in the document: {', '.join(c['missing_numbers'])}")
    if c.get("mismatched_numbers"):
        lines.append(f"  numbers that count something else there: {', '.join(c['mismatched_numbers'])}")
    if c.get("other_amount"):
        lines.append("  the evidence gives another amount")
    for clause in c.get("uncovered_clauses") or ():
        lines.append(f"  clause not covered: “{clause}”")
    return lines


def coverage_lines(citations: Sequence[Mapping[str, Any]]) -> list[str]:
    """For a sentence citing several documents: the words each has that another lacks,
    and the words none has."""
    checked = [c for c in citations if c["verdict"] != "unchecked"]
    if len(checked) < 2:
        return []
    missing = {c["doc_id"]: set(c.get("missing_terms") or ()) for c in checked}
    lines = []
    for c in checked:
        others = set().union(*(m for d, m in missing.items() if d != c["doc_id"]))
        own = [w for w in _ordered(checked) if w in others and w not in missing[c["doc_id"]]]
        if own:
            lines.append(f"{c['doc_id']} alone has: {', '.join(own)}")
    nowhere = [w for w in _ordered(checked) if all(w in m for m in missing.values())]
    if nowhere:
        lines.append(f"no cited document has: {', '.join(nowhere)}")
    return lines


def _ordered(citations: Sequence[Mapping[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for c in citations:
        for w in c.get("missing_terms") or ():
            seen.setdefault(w, None)
    return list(seen)


def explain_lines(
    path: str, reports: Sequence[Mapping[str, Any]], show_command: str | None = None
) -> list[str]:
    """Every judged sentence of a file, explained (`--explain`)."""
    lines = []
    for n, report in enumerate(reports, start=1):
        for s in report["sentences"]:
            citations = s["citations"]
            if not citations:
                continue
            lines.append(
                f"{path}: report {n} (topic {report['topic_id']}), sentence {s['index'] + 1}: “{s['text']}”"
            )
            for c in citations:
                lines += [f"  {line}" for line in citation_lines(c, show_command)]
            lines += [f"  {line}" for line in coverage_lines(citations)]
    return lines
