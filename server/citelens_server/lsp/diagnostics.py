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
import threading
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from operator import is_
from typing import TYPE_CHECKING, Any

from citelens.source.line_index import LineIndex, count_units, moved_span
from citelens_server.lsp.positions import Encoding

if TYPE_CHECKING:
    from citelens.session import FileResult, Finding, PlacedOnRead

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


#: reports whose JSON is kept as one piece (a piece is reused while none of its reports changed)
CHUNK = 64


@dataclass(slots=True)
class _Chunk:
    """The JSON of `CHUNK` consecutive reports, and what it depends on: their lists of
    findings (the same objects), the line the first starts on and the text of their lines
    (so the same lines and columns: unchanged where no edit since touched their span),
    and where the other reports they relate to start."""

    lists: list[Sequence[Finding]]
    line: int
    begin: int  # the span of their lines in the text rendered
    end: int
    outside: tuple[int, ...]
    outside_starts: tuple[_Start, ...]
    json: bytes  # encoded once: written as it is on every later edit


class JsonArray:
    """A JSON array kept in pieces of encoded text, so a big one (a 10,000-report run's
    diagnostics are 27 MB) is neither joined nor encoded again to be sent: the writer
    writes its `parts`. `str()` gives it whole, for a message built as text."""

    __slots__ = ("parts",)

    def __init__(self, pieces: Iterable[bytes]) -> None:
        parts = [b"["]
        for piece in pieces:
            if piece:
                if len(parts) > 1:
                    parts.append(b",")
                parts.append(piece)
        parts.append(b"]")
        self.parts: list[bytes] = parts

    def __str__(self) -> str:
        return b"".join(self.parts).decode("ascii")

    __format__ = lambda self, spec: str(self)  # noqa: E731  # in f-strings too


def publish_parts(uri: str, version: int | None, diagnostics: JsonArray | str) -> list[bytes | str]:
    """The JSON text of a `publishDiagnostics` notification, in parts (ASCII; not joined:
    it may be megabytes)."""
    head = f'{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{json.dumps(uri)}'
    if version is not None:
        head += f',"version":{int(version)}'
    body = diagnostics.parts if isinstance(diagnostics, JsonArray) else [diagnostics]
    return [f'{head},"diagnostics":', *body, "}}"]


class DiagnosticsJson:
    """The diagnostics of one document as JSON text, reusing the JSON of every report whose
    findings and place are unchanged since the last time.

    A one-character edit of a 10,000-report run changes one report; the tens of thousands
    of diagnostics of the others keep their line, column and text, so only the edited
    report's are written again. A report's JSON is kept with its list of findings (the
    session's, the same object while the texts of the report and of the reports its
    findings relate to are unchanged: `PlacedOnRead`), the line each of those reports
    starts on and the text before it on that line (columns count from there, in UTF-16
    too). Runs of `CHUNK` reports are kept as one piece too, checked as a whole (their
    lists, their first line, their text compared in place), so an edit costs a few
    comparisons per piece rather than per report.
    """

    def __init__(self, links: DocLinks | None = None) -> None:
        self._links = links or DocLinks()
        #: one render at a time: a worker renders an edit's result while the loop may
        #: answer a pull for the same document (checks.py)
        self._lock = threading.Lock()
        #: id(report findings) -> (those findings, where it and its linked reports start, JSON of each)
        self._reports: dict[int, tuple[Sequence[Finding], tuple[_Start, ...], list[str]]] = {}
        self._chunks: dict[int, _Chunk] = {}
        self._for: tuple[str, str] = ("", "")  # (encoding, uri) the kept JSON was made for
        self._serial = 0  # the line index it was made on (`LineIndex.edits_since`)

    def render(
        self, findings: Iterable[Finding], index: LineIndex, encoding: Encoding, uri: str = ""
    ) -> JsonArray:
        """The JSON array of the diagnostics of `findings`."""
        write = _Writer(index, encoding, uri, self._links)
        return JsonArray(_encoded([write(f) for f in findings]))

    def render_result(
        self, result: FileResult, index: LineIndex, encoding: Encoding, uri: str = ""
    ) -> JsonArray:
        """The JSON array of the diagnostics of a file's result, a report at a time when the
        result keeps them so (`PlacedOnRead` in file order)."""
        from citelens.session import PlacedOnRead

        if not isinstance(result, PlacedOnRead) or not result.in_order:
            return self.render(result.findings, index, encoding, uri)
        with self._lock:
            return self._render_placed(result, index, encoding, uri)

    def _render_placed(
        self, result: PlacedOnRead, index: LineIndex, encoding: Encoding, uri: str
    ) -> JsonArray:
        if self._for != (encoding, uri):
            self._reports, self._chunks, self._for = {}, {}, (encoding, uri)
        edits = index.edits_since(self._serial)
        write = _Writer(index, encoding, uri, self._links)
        line_starts, text, starts, links = index.starts, index.text, result.starts, result.links
        relative, count = result.relative, len(result.relative)

        def start_of(k: int) -> _Start:
            at = starts[k]
            line = bisect_right(line_starts, at) - 1
            return line, text[line_starts[line] : at]

        def lines_of(lo: int, hi: int) -> tuple[int, int, int]:
            """(first line, start of it, end of the last line) of reports lo..hi-1."""
            first = bisect_right(line_starts, starts[lo]) - 1
            last = bisect_right(line_starts, starts[hi - 1]) - 1
            end = line_starts[last + 1] if last + 1 < len(line_starts) else len(text)
            return first, line_starts[first], end

        kept_reports = self._reports

        def report_json(k: int, found: Sequence[Finding]) -> list[str]:
            linked = links.get(k)
            where = (start_of(k), *(start_of(r) for r in linked)) if linked else (start_of(k),)
            kept = kept_reports.get(id(found))
            if kept is not None and kept[0] is found and kept[1] == where:
                return kept[2]
            fragments = write.report(found, starts[k], starts)
            kept_reports[id(found)] = (found, where, fragments)
            return fragments

        old, chunks = self._chunks, {}
        parts = _encoded([write(f) for f in result.head])
        for c, lo in enumerate(range(0, count, CHUNK)):
            hi = min(lo + CHUNK, count)
            lists = relative[lo:hi]
            first, begin, end = lines_of(lo, hi)
            chunk = old.get(c)
            if (
                chunk is None
                or chunk.line != first
                or moved_span(chunk.begin, chunk.end, edits) != (begin, end)
                or len(chunk.lists) != len(lists)
                or not all(map(is_, chunk.lists, lists))
                or chunk.outside_starts != tuple(start_of(r) for r in chunk.outside)
            ):
                pieces: list[str] = []
                outside: dict[int, None] = {}
                for k in range(lo, hi):
                    if relative[k]:
                        pieces += report_json(k, relative[k])
                        for r in links.get(k, ()):
                            if not lo <= r < hi:
                                outside[r] = None
                json_ = ",".join(pieces).encode("ascii")
                chunk = _Chunk(lists, first, begin, end, tuple(outside), tuple(map(start_of, outside)), json_)
            elif chunk.begin != begin:  # moved by an edit before it
                chunk = replace(chunk, begin=begin, end=end)
            chunks[c] = chunk
            parts.append(chunk.json)
        self._chunks, self._serial = chunks, index.serial
        if len(kept_reports) > 2 * count + 100:  # lists of reports that no longer exist
            alive = {id(found) for found in relative}
            self._reports = {key: value for key, value in kept_reports.items() if key in alive}
        return JsonArray(parts)


#: where a report starts: its line, and the text before it on that line
_Start = tuple[int, str]


def _encoded(fragments: list[str]) -> list[bytes]:
    return [",".join(fragments).encode("ascii")] if fragments else []


class _Writer:
    """One diagnostic's JSON text, written directly: building a dict per diagnostic and
    dumping it was most of the time of publishing thousands."""

    def __init__(self, index: LineIndex, encoding: Encoding, uri: str, links: DocLinks) -> None:
        self.starts, self.text, self.size = index.starts, index.text, len(index.text)
        self.lines = len(index.starts)
        self.utf32 = encoding == "utf-32"
        self.encoding, self.uri, self.links = encoding, uri, links
        #: line -> whether its columns are code-point offsets: it is ASCII, or (UTF-16) has
        #: no character outside the BMP, so every prefix counts as many units as characters
        self.ascii: dict[int, bool] = {}
        self.parts: dict[tuple[str, str], tuple[str, str, str]] = {}  # see `_parts`
        from citelens.session import placed_in_file, places_related  # the engine: loaded by then

        self.place, self.places_related = placed_in_file, places_related

    def plain(self, line: int) -> bool:
        """Whether the columns of `line` are code-point offsets (cached per line)."""
        if self.utf32:
            return True
        plain = self.ascii.get(line)
        if plain is None:
            start = self.starts[line]
            end = self.starts[line + 1] if line + 1 < self.lines else self.size
            whole = self.text[start:end]
            plain = self.ascii[line] = whole.isascii() or count_units(whole, self.encoding) == len(whole)
        return plain

    def position(self, offset: int) -> str:
        offset = min(max(offset, 0), self.size)
        starts = self.starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        column = offset - start if self.plain(line) else count_units(self.text[start:offset], self.encoding)
        return f'{{"line":{line},"character":{column}}}'

    def report(self, found: Sequence[Finding], at: int, starts: list[int]) -> list[str]:
        """The JSON of a report's findings, kept relative to the report (which starts at
        `at`; `starts`: every report's start). A finding on the report's own line, on a
        line whose columns are offsets and with no related places, is written from its
        offsets at once (no placed copy of it, no line search: most of an editor's first
        render); any other is placed in the file first."""
        line = bisect_right(self.starts, at) - 1
        first = self.starts[line]
        last = self.starts[line + 1] - 1 if line + 1 < self.lines else self.size  # last offset on it
        plain = self.plain(line)
        out: list[str] = []
        append, parts, encode, related = out.append, self.parts, _encode, self.places_related
        # the range's JSON around its two columns: the line is the same for all of them
        opening = f'{{"range":{{"start":{{"line":{line},"character":'
        middle = f'}},"end":{{"line":{line},"character":'
        for f in found:
            s, e = at + f.start, at + f.end
            if plain and first <= s <= e <= last and not (f.data and related(f)):
                head, data, tail = parts.get((f.code, f.severity)) or self._kept_parts(f.code, f.severity)
                # one string built at once (what `diagnostic` writes, with the range inline)
                append(
                    f"{opening}{s - first}{middle}{e - first}}}}}"
                    f"{head}{encode(f.message)}{data}{encode(f.pointer)}{tail}}}"
                )
            else:
                append(self(self.place(f, at, starts)))
        return out

    def range(self, start: int, end: int) -> str:
        return f'{{"start":{self.position(start)},"end":{self.position(end)}}}'

    def __call__(self, f: Finding) -> str:
        return self.diagnostic(f, self.range(f.start, f.end))

    def _parts(self, code: str, severity: str) -> tuple[str, str, str]:
        """What a diagnostic of `code` at `severity` is written with around its range, its
        message and its pointer (the same for all of them: made once)."""
        link = self.links(code)
        href = f',"codeDescription":{{"href":{_string(link)}}}' if link else ""
        c = _string(code)
        head = f',"severity":{SEVERITY.get(severity, 1)},"code":{c},"source":"{SOURCE}","message":'
        return head, f',"data":{{"code":{c},"pointer":', "}" + href

    def _kept_parts(self, code: str, severity: str) -> tuple[str, str, str]:
        parts = self.parts[code, severity] = self._parts(code, severity)
        return parts

    def diagnostic(self, f: Finding, where: str) -> str:
        """`f`'s diagnostic at the range `where` (JSON text)."""
        head, data, tail = self.parts.get((f.code, f.severity)) or self._kept_parts(f.code, f.severity)
        out = f'{{"range":{where}{head}{_encode(f.message)}{data}{_encode(f.pointer)}{tail}'
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
