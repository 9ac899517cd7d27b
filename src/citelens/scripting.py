"""The Python API for scripts and notebooks: a few calls over the same session API that
the command line and the language server use, with results that print and render well.

    import citelens

    findings = citelens.check_file("run.jsonl", spec="rag26", topics="topics.tsv")
    findings.errors                        # rows with line, column, code and message
    findings                               # a table in Jupyter (escaped HTML)
    converted = citelens.convert_file("run.jsonl", to="ragtime26")
    converted.text, converted.notes
    citelens.align_sentence("Trees stop making chlorophyll.", {"d1": "...document text..."})
    citelens.get_document("msmarco_v2.1_doc_00_0#0", sources=["corpus/"])

Lines and columns are 1-based and counted in code points, as `citelens check` prints them.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citelens.align.models import SpanCitations
    from citelens.check.finding import Finding
    from citelens.corpus.corpus_document import CorpusDocument
    from citelens.session import OpenDocument
    from citelens.source.line_index import LineIndex


@dataclass(frozen=True)
class FindingRow:
    """One finding where a person reads it: file, 1-based line and column, code, message."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.severity}[{self.code}] {self.message}"


_COLUMNS = ("line", "column", "severity", "code", "message")


class Findings(list[FindingRow]):
    """The findings of one check: a list of rows, plus counts and a notebook table."""

    @property
    def errors(self) -> list[FindingRow]:
        return [f for f in self if f.severity == "error"]

    @property
    def warnings(self) -> list[FindingRow]:
        return [f for f in self if f.severity == "warning"]

    def __str__(self) -> str:
        return "\n".join(str(f) for f in self) or "no findings"

    def _repr_html_(self) -> str:
        """A table for Jupyter; every value is escaped (messages quote report text)."""
        if not self:
            return "<p>no findings</p>"
        head = "".join(f"<th>{name}</th>" for name in _COLUMNS)
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(getattr(f, name)))}</td>" for name in _COLUMNS) + "</tr>"
            for f in self
        )
        summary = f"{len(self.errors)} error(s), {len(self.warnings)} warning(s)"
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table><p>{summary}</p>"


def _rows(path: str, findings: Iterable[Finding], lines: LineIndex) -> Findings:
    out = Findings()
    for f in findings:
        line, col = lines.position(f.start)
        end_line, end_col = lines.position(f.end)
        out.append(
            FindingRow(path, line + 1, col + 1, end_line + 1, end_col + 1, f.code, f.severity, f.message)
        )
    return out


def _settings(spec: Any, topics: Any, strict: bool | None, docs: Sequence[str] | None) -> dict[str, Any]:
    given = {"spec": spec, "strict": strict, "topics": str(Path(topics).absolute()) if topics else None}
    if docs:
        given["corpora"] = [str(d) for d in docs]
    return {k: v for k, v in given.items() if v is not None}


def _open_file(path: str | Path, settings: dict[str, Any]) -> OpenDocument:
    from citelens.session import Workspace

    doc: OpenDocument = Workspace(cli=settings).open_file(Path(path))
    return doc


def check_file(
    path: str | Path,
    *,
    spec: str | None = None,
    topics: str | Path | None = None,
    strict: bool | None = None,
    docs: Sequence[str] | None = None,
) -> Findings:
    """The findings `citelens check` gives for a run file (its `citelens.toml` applies;
    the arguments given here win over it)."""
    doc = _open_file(path, _settings(spec, topics, strict, docs))
    return _rows(str(path), doc.result.findings, doc.line_index)


def check_text(
    text: str,
    *,
    spec: str | None = None,
    topics: str | Path | None = None,
    strict: bool | None = None,
    name: str = "<text>",
) -> Findings:
    """The findings for run text held in memory (JSON lines, a JSON array or one report)."""
    from citelens.session import Workspace

    doc = Workspace(cli=_settings(spec, topics, strict, None)).open(name, text)
    return _rows(name, doc.result.findings, doc.line_index)


@dataclass
class Conversion:
    """A converted run: its text, and what the conversion lost or could not convert."""

    text: str
    notes: Findings = field(default_factory=Findings)
    broken: Findings = field(default_factory=Findings)


def convert_file(path: str | Path, to: str, *, topics: str | Path | None = None) -> Conversion:
    """The run converted to spec `to`, as `citelens convert` would write it (nothing is
    written here)."""
    from citelens.source.edits import apply_edits

    doc = _open_file(path, _settings(None, topics, None, None))
    result = doc.convert_edits(to)
    text = apply_edits(doc.text, list(result.edits))
    return Conversion(
        text, _rows(str(path), result.notes, doc.line_index), _rows(str(path), result.broken, doc.line_index)
    )


def align_sentence(sentence: str, documents: Mapping[str, str] | Sequence[Any]) -> list[SpanCitations]:
    """cite-right's evidence for one sentence in the given documents (id -> text, or
    `SourceDocument`s)."""
    from citelens.align.citations import align_citations
    from citelens.align.models import SourceDocument

    sources = (
        [SourceDocument(id=str(k), text=v) for k, v in documents.items()]
        if isinstance(documents, Mapping)
        else list(documents)
    )
    results: list[SpanCitations] = align_citations(sentence, sources)
    return results


def get_document(
    doc_id: str, *, sources: Sequence[str], base_dir: str | Path | None = None
) -> CorpusDocument | None:
    """A document from the given sources (corpus files, an index, `irds:…`, a REST
    service), or None when none of them has it. Raises `LookupError` when a source could
    not answer (unreachable, or an index still being built), naming it and why."""
    from citelens.corpus import lookup_one, open_sources

    chain = open_sources(list(sources), Path(base_dir) if base_dir else None)
    try:
        found, why = lookup_one(chain, doc_id)
    finally:
        chain.close()
    if found is None and why:
        raise LookupError(f"{doc_id}: {why}")
    return found
