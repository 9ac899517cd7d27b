"""Findings -> LSP diagnostics as JSON text.

A diagnostic is written as JSON text directly (not through lsprotocol's classes: see
positions.py) carrying the finding's code, a `codeDescription` link to the rule's
documentation, `source: "citelens"`, its related places and, in `data`, what the
code-action handler needs to find the finding again (its code and pointer).
"""

from __future__ import annotations

import json
import json.encoder
import logging
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from citelens.session.catalog import RELATED_AT
from citelens.source.line_index import LineIndex, count_units
from citelens_server.lsp.positions import Encoding

if TYPE_CHECKING:
    from citelens.session import FileResult, Finding

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


class DiagnosticsJson:
    """The diagnostics of one document as JSON text, reusing the JSON of every diagnostic
    whose finding and place are unchanged since the last time.

    A one-character edit of a 1,000-report run changes one report; the thousands of
    diagnostics of the others keep their line, column and text, so only the edited
    report's are written again. A report's diagnostics are kept with the report's findings
    (the session's per-report outcome, the same object while the report's text is
    unchanged), the line the report starts on and the text before it on that line (its
    columns count from there, in UTF-16 too). A file-level finding's is kept with the
    placed finding (the engine keeps the object while its reports do not move) and the
    same for the reports its related places are in.
    """

    def __init__(self, links: DocLinks | None = None) -> None:
        self._links = links or DocLinks()
        #: id(report findings) -> (those findings, where the report starts, JSON of each)
        self._reports: dict[int, tuple[Sequence[Finding], _Start, list[str]]] = {}
        #: id(file-level finding) -> (it, where its reports start, its JSON)
        self._file_level: dict[int, tuple[Finding, tuple[_Start, ...], str]] = {}
        self._for: tuple[str, str] = ("", "")  # (encoding, uri) the kept JSON was made for

    def render(self, findings: Iterable[Finding], index: LineIndex, encoding: Encoding, uri: str = "") -> str:
        """The JSON array of the diagnostics of `findings`."""
        write = _Writer(index, encoding, uri, self._links)
        return _array([write(f) for f in findings])

    def render_result(self, result: FileResult, index: LineIndex, encoding: Encoding, uri: str = "") -> str:
        """The JSON array of the diagnostics of a file's result, a report at a time when the
        result keeps them so (`PlacedOnRead` in file order)."""
        from citelens.session import PlacedOnRead, placed

        if not isinstance(result, PlacedOnRead) or not result.in_order:
            return self.render(result.findings, index, encoding, uri)
        if self._for != (encoding, uri):
            self._reports, self._file_level, self._for = {}, {}, (encoding, uri)
        write = _Writer(index, encoding, uri, self._links)
        line_starts, text, report_starts = index.starts, index.text, result.starts
        starts: dict[int, _Start] = {}

        def start_of(k: int) -> _Start:
            """(line, text before it on that line) of report `k`'s start."""
            found = starts.get(k)
            if found is None:
                at = report_starts[k]
                line = bisect_right(line_starts, at) - 1
                found = starts[k] = (line, text[line_starts[line] : at])
            return found

        old_files, new_files = self._file_level, {}

        def file_level(f: Finding, k: int) -> str:
            where: tuple[_Start, ...] = (start_of(k),)
            related = f.data.get(RELATED_AT) if f.data else None
            if related:
                where += tuple(
                    start_of(bisect_right(report_starts, f.start + ds) - 1) for _, ds, _ in related
                )
            kept = old_files.get(id(f))
            fragment = kept[2] if kept is not None and kept[0] is f and kept[1] == where else write(f)
            new_files[id(f)] = (f, where, fragment)
            return fragment

        old, new = self._reports, {}
        parts = [write(f) for f in result.head]
        extras = result.extra
        for k, relative in enumerate(result.relative):
            extra = extras.get(k)
            if not relative:
                if extra:
                    parts += [file_level(f, k) for f in extra]
                continue
            at, start = report_starts[k], start_of(k)
            kept = old.get(id(relative))
            if kept is not None and kept[0] is relative and kept[1] == start:
                fragments = kept[2]
            else:
                fragments = [write(placed(f, at)) for f in relative]
            new[id(relative)] = (relative, start, fragments)
            if extra:
                parts += _merged(at, relative, fragments, [(f, file_level(f, k)) for f in extra])
            else:
                parts += fragments
        self._reports, self._file_level = new, new_files
        return _array(parts)


#: where a report starts: its line, and the text before it on that line
_Start = tuple[int, str]


def _merged(
    at: int, relative: Sequence[Finding], fragments: list[str], extra: list[tuple[Finding, str]]
) -> list[str]:
    """A report's diagnostics with its file-level ones merged in, in the order of
    `PlacedOnRead.report_findings` (each file-level one before its equals)."""
    out: list[str] = []
    k, count = 0, len(relative)
    for f, fragment in extra:
        key = (f.start - at, f.end - at, f.code)
        while k < count and (relative[k].start, relative[k].end, relative[k].code) < key:
            out.append(fragments[k])
            k += 1
        out.append(fragment)
    out += fragments[k:]
    return out


def _array(parts: list[str]) -> str:
    if not parts:
        return "[]"
    parts[0] = "[" + parts[0]
    parts[-1] += "]"  # after the first: they are the same part when there is one
    return ",".join(parts)  # one copy: `"[" + join + "]"` made two more of a 50 MB run's 11 MB


class _Writer:
    """One diagnostic's JSON text, written directly: building a dict per diagnostic and
    dumping it was most of the time of publishing thousands."""

    def __init__(self, index: LineIndex, encoding: Encoding, uri: str, links: DocLinks) -> None:
        self.starts, self.text, self.size = index.starts, index.text, len(index.text)
        self.lines = len(index.starts)
        self.utf32 = encoding == "utf-32"
        self.encoding, self.uri, self.links = encoding, uri, links
        self.ascii: dict[int, bool] = {}  # line -> whether it is ASCII (its columns are offsets)
        self.hrefs: dict[str, str] = {}

    def position(self, offset: int) -> str:
        offset = min(max(offset, 0), self.size)
        starts = self.starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        if self.utf32:
            column = offset - start
        else:
            plain = self.ascii.get(line)
            if plain is None:
                end = starts[line + 1] if line + 1 < self.lines else self.size
                plain = self.ascii[line] = self.text[start:end].isascii()
            column = offset - start if plain else count_units(self.text[start:offset], self.encoding)
        return f'{{"line":{line},"character":{column}}}'

    def range(self, start: int, end: int) -> str:
        return f'{{"start":{self.position(start)},"end":{self.position(end)}}}'

    def __call__(self, f: Finding) -> str:
        code = f.code
        href = self.hrefs.get(code)
        if href is None:
            link = self.links(code)
            href = self.hrefs[code] = f',"codeDescription":{{"href":{_string(link)}}}' if link else ""
        severity = SEVERITY.get(f.severity, 1)
        c, m, p = _string(code), _string(f.message), _string(f.pointer)
        out = (
            f'{{"range":{self.range(f.start, f.end)},"severity":{severity},"code":{c},'
            f'"source":"{SOURCE}","message":{m},"data":{{"code":{c},"pointer":{p}}}{href}'
        )
        related = f.related if f.data else ()
        if related and self.uri:  # located by the engine; converted here like every range
            uri = _string(self.uri)
            out += (
                ',"relatedInformation":['
                + ",".join(
                    f'{{"location":{{"uri":{uri},"range":{self.range(r.start, r.end)}}},'
                    f'"message":{_string(r.message)}}}'
                    for r in related
                )
                + "]"
            )
        return out + "}"


def _string(value: Any) -> str:
    return _encode(value) if isinstance(value, str) else json.dumps(value)


_encode: Callable[[str], str] = json.encoder.encode_basestring_ascii


def finding_for(code: Any, start: int, end: int, findings: list[Finding], lines: LineIndex) -> Finding | None:
    """The finding a diagnostic names, in the document's current result: by its code and
    its range, else its code and line (a client may send other columns back; the engine's
    `session.finding_match`)."""
    from citelens.session.finding_match import finding_for as match

    return match(code, start, end, findings, lines)
