"""Findings -> LSP diagnostics as JSON text.

A diagnostic is built as a plain JSON dict (see positions.py for why) carrying the
finding's code, a `codeDescription` link to the rule's documentation, `source:
"citelens"` and, in `data`, what the code-action handler needs to find the finding again
(code and offsets, and the version they belong to).
"""

from __future__ import annotations

import json
import logging
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from citelens.session.catalog import RELATED_AT
from citelens.source.line_index import LineIndex
from citelens_server.lsp.positions import Encoding, span_range

if TYPE_CHECKING:
    from citelens.session import Finding

log = logging.getLogger("citelens_server")

SEVERITY = {"error": 1, "warning": 2, "info": 3}
SOURCE = "citelens"


class DocLinks:
    """Each rule's documentation link, looked up once (one per rule code: bounded)."""

    def __init__(self) -> None:
        self._links: dict[str, str | None] = {}

    def __call__(self, code: str) -> str | None:
        if code not in self._links:
            from citelens.session.catalog import docs_uri  # every rule's page: after `initialize`

            try:
                self._links[code] = docs_uri(code)
            except Exception:  # the catalog is package data; a broken install must not stop diagnostics
                log.exception("no documentation link for %s", code)
                self._links[code] = None
        return self._links[code]


def to_diagnostic(
    finding: Finding, index: LineIndex, encoding: Encoding, uri: str = "", links: DocLinks | None = None
) -> dict[str, Any]:
    diagnostic: dict[str, Any] = {
        "range": span_range(index, finding.start, finding.end, encoding),
        "severity": SEVERITY.get(finding.severity, 1),
        "code": finding.code,
        "source": SOURCE,
        "message": finding.message,
        "data": {"code": finding.code, "pointer": finding.pointer},
    }
    href = (links or DocLinks())(finding.code)
    if href:
        diagnostic["codeDescription"] = {"href": href}
    related = finding.related if finding.data else ()
    if related and uri:  # located by the engine; converted here like every range
        diagnostic["relatedInformation"] = [
            {
                "location": {"uri": uri, "range": span_range(index, r.start, r.end, encoding)},
                "message": r.message,
            }
            for r in related
        ]
    return diagnostic


class DiagnosticsJson:
    """The diagnostics of one document as JSON text, reusing the text of every diagnostic
    whose line is unchanged since the last time.

    A one-character edit of a 1,000-report run changes one line; the other thousands of
    diagnostics keep their line, column and text, so only the edited line's are converted
    and serialised again. A diagnostic is keyed by its finding and its code-point line and
    columns, and by the text of its lines (a character added earlier on the same line can
    change its UTF-16 column without changing its code-point column).
    """

    def __init__(self, links: DocLinks | None = None) -> None:
        self._fragments: dict[tuple[Any, ...], str] = {}
        self._links = links or DocLinks()

    def render(self, findings: list[Finding], index: LineIndex, encoding: Encoding, uri: str = "") -> str:
        starts, text = index.starts, index.text
        size, last_line = len(text), len(starts) - 1
        line_texts: dict[int, str] = {}
        old: dict[tuple[Any, ...], str] = self._fragments
        new: dict[tuple[Any, ...], str] = {}
        parts: list[str] = []

        def line_text(n: int) -> str:
            found = line_texts.get(n)
            if found is None:
                found = line_texts[n] = text[starts[n] : index.line_end(n, with_break=True)]
            return found

        def line_of(offset: int) -> int:
            return bisect_right(starts, min(offset, size)) - 1

        for f in findings:
            start, end = min(f.start, size), min(f.end, size)
            ls = bisect_right(starts, start) - 1  # most findings sit on one line: one search
            le = ls if ls == last_line or end < starts[ls + 1] else bisect_right(starts, end) - 1
            hs = line_text(ls)
            he = hs if le == ls else line_text(le)
            key: tuple[Any, ...] = (
                f.code,
                f.severity,
                f.message,
                f.pointer,
                ls,
                start - starts[ls],
                le,
                end - starts[le],
                hs,
                he,
            )
            related = f.data.get(RELATED_AT) if f.data else None
            if related:  # a related place may sit on another line: its line is part of the key
                for _, ds, de in related:
                    rs, rl = min(f.start + ds, size), line_of(f.start + ds)
                    re_, rle = min(f.start + de, size), line_of(f.start + de)
                    key += (rl, rs - starts[rl], line_text(rl), rle, re_ - starts[rle], line_text(rle))
            fragment = old.get(key)
            if fragment is None:
                fragment = json.dumps(to_diagnostic(f, index, encoding, uri, self._links))
            new[key] = fragment
            parts.append(fragment)
        self._fragments = new
        if not parts:
            return "[]"
        parts[0] = "[" + parts[0]
        parts[-1] += "]"  # after the first: they are the same part when there is one
        return ",".join(parts)  # one copy: `"[" + join + "]"` made two more of a 50 MB run's 11 MB


def finding_for(code: Any, start: int, end: int, findings: list[Finding], lines: LineIndex) -> Finding | None:
    """The finding a diagnostic names, in the document's current result: by its code and
    its range, else its code and line (a client may send other columns back; the engine's
    `session.finding_match`)."""
    from citelens.session.finding_match import finding_for as match

    return match(code, start, end, findings, lines)
