"""`Report`: one submitted answer to one topic, in any RAG-family wire shape.

The model is permissive: it loads every track's shape (sentences under `responses` or
`answer`, any of the three citation shapes) and leaves track rules to a spec, which is
always given by the caller (`verify(spec)`, `convert(spec)`), never guessed from data.
`responses` and `answer` name the same sentence list after loading.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from citelens.models import legacy_checks, verification
from citelens.models.citation_views import as_confidences, as_ordered_ids
from citelens.models.document_record import Document
from citelens.models.metadata import ReportMetaData
from citelens.models.ranking import RankedDocument, RetrievedDocuments
from citelens.models.segmentation import paragraphs
from citelens.models.sentences import (
    NeuclirReportSentence,
    Rag24ReportSentence,
    RagtimeReportSentence,
    ReportSentence,
)

if TYPE_CHECKING:
    from citelens.specs import TrackSpec

    SpecArg = TrackSpec | str | None


class Report(BaseModel):
    """A report: metadata, sentences with citations, and optionally references and documents."""

    is_ragtime: bool = True
    metadata: ReportMetaData
    evaldata: dict[str, Any] | None = None
    # The union order matters: it decides which shape an ambiguous list (e.g. `[]`) gets.
    responses: (
        list[NeuclirReportSentence] | list[RagtimeReportSentence] | list[Rag24ReportSentence] | None
    ) = None
    answer: list[NeuclirReportSentence] | list[RagtimeReportSentence] | list[Rag24ReportSentence] | None = (
        None
    )
    path: Path | None = Field(default=None, exclude=True)
    references: list[str] | None = None  # rag24 citations are positions into this list
    ranking: list[RetrievedDocuments] | list[RankedDocument] | None = None
    documents: dict[str, Document] | None = None

    def model_post_init(self, __context: Any) -> None:
        if self.responses is None:
            self.responses = self.answer
        if self.responses is None:
            raise RuntimeError(f"Report does not contain responses or answer: {self}")
        if self.answer is None:
            self.answer = self.responses

    def _sentences(self) -> list[ReportSentence]:
        """The sentence list; after `switch_responses_to_answer` it lives under `answer`."""
        if self.responses is not None:
            return list(self.responses)
        return list(self.answer or [])

    # --- text -------------------------------------------------------------------------

    def get_report_text(self) -> str:
        """The sentence texts joined by single spaces."""
        return " ".join(s.text for s in self._sentences())

    def get_text(self) -> str:
        return self.get_report_text()

    def get_paragraphs(self) -> list[str]:
        """The report text split at blank lines."""
        return paragraphs(self.get_text())

    def get_sentences(self) -> list[str]:
        return [s.text for s in self._sentences()]

    # --- citations ----------------------------------------------------------------------

    def get_sentences_with_citations(self) -> list[NeuclirReportSentence]:
        """Every sentence with its citations as doc ids in priority order (report unchanged)."""
        refs = self.references or []
        return [as_ordered_ids(s, refs) for s in self._sentences()]

    def get_sentences_with_citation_confidences(self) -> list[RagtimeReportSentence]:
        """Every sentence with `{doc_id: confidence}` citations; order-only shapes get 1/rank."""
        refs = self.references or []
        return [as_confidences(s, refs) for s in self._sentences()]

    def autofill_references(self) -> None:
        """Set `references` to the doc ids cited by ragtime and neuclir sentences.

        Ids come in first-citation order (the reference library uses set order). Rag24
        sentences are not looked at, as in the reference library: their positions would
        need re-pointing.
        """
        cited: dict[str, None] = {}
        for s in self._sentences():
            if isinstance(s, (RagtimeReportSentence, NeuclirReportSentence)):
                cited.update(dict.fromkeys(s.citations or []))
        self.references = list(cited)

    def switch_responses_to_answer(self) -> None:
        """Keep the sentences under `answer` only (RAG naming)."""
        self.answer = self.responses
        self.responses = None

    def switch_to_neuclir_responses(self) -> None:
        """Rewrite the sentences in place as neuclir sentences (ids in priority order)."""
        refs = self.references or []
        if self.responses is not None:
            self.responses = [as_ordered_ids(s, refs) for s in self.responses]
        elif self.answer is not None:
            self.answer = [as_ordered_ids(s, refs) for s in self.answer]
        else:
            raise RuntimeError(
                f"Either responses or answer must be set to a non-None value, but received: {self}"
            )

    # --- checking -----------------------------------------------------------------------

    def verify_ragtime(
        self, use_answer: bool = False, check_doc_ids: bool = True, spec: SpecArg = None
    ) -> bool:
        """Deprecated RAGTIME checks; with `spec` this is `verify(spec)`."""
        if spec is not None:
            return self.verify(spec, use_answer=use_answer)
        warnings.warn(
            "Report.verify_ragtime() without a spec is deprecated; use report.verify('ragtime26').",
            DeprecationWarning,
            stacklevel=2,
        )
        return legacy_checks.verify_ragtime(self, check_doc_ids=check_doc_ids)

    def verify(self, spec: SpecArg = None, *, request: Any = None, use_answer: bool = False) -> bool:
        """True if the report has no error under `spec`; else raise the first error.

        The exception is a `TrackSpecVerificationError` (a RuntimeError). Warnings (the
        spec's smells) never raise. `spec=None` runs the shape-only checks.
        """
        return verification.verify(self, spec, request=request, use_answer=use_answer)

    def check(self, spec: SpecArg = None, *, request: Any = None, use_answer: bool = False) -> list[str]:
        """Every error message under `spec` (empty: valid); warnings are left out."""
        return verification.findings(self, spec, request=request, use_answer=use_answer)[0]

    def check_findings(
        self, spec: SpecArg = None, *, request: Any = None, use_answer: bool = False
    ) -> tuple[list[str], list[str]]:
        """(errors, warnings) under `spec`."""
        return verification.findings(self, spec, request=request, use_answer=use_answer)

    def verify_rag(self, use_answer: bool = False, spec: SpecArg = None) -> bool:
        """`verify` with a RAG spec, by default the newest built-in RAG spec."""
        if spec is None:
            from citelens.specs import newest_spec

            spec = newest_spec("rag")
        return self.verify(spec, use_answer=use_answer)

    # --- conversion -----------------------------------------------------------------------

    def convert(self, spec: TrackSpec | str) -> Report:
        """A new report in `spec`'s shape (see `citelens.models.conversion`)."""
        from citelens.models.conversion import convert  # loaded on first use

        return convert(self, spec)

    def to_rag(self, spec: SpecArg = None) -> Report:
        """Deprecated: `convert(spec)` with a RAG spec (default rag25)."""
        from citelens.models.conversion import to_rag  # loaded on first use

        return to_rag(self, spec)

    def to_ragtime(self, spec: SpecArg = None) -> Report:
        """Deprecated: `convert(spec)` with a RAGTIME spec (default ragtime25)."""
        from citelens.models.conversion import to_ragtime  # loaded on first use

        return to_ragtime(self, spec)


def load_report(reports_path: Path | str) -> list[Report]:
    """Every report of a JSONL file (blank lines skipped), each remembering its path."""
    path = Path(reports_path)
    reports: list[Report] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            report = Report.model_validate(json.loads(line))
            report.path = path.absolute()
            reports.append(report)
    return reports


def extract_doc_ids_from_report(report: Report, cited_only: bool = False) -> set[str]:
    """Doc ids the report cites, plus its references unless `cited_only`."""
    refs = report.references or []
    doc_ids: set[str] = set()
    for s in report.responses or []:
        if s.citations is None:
            continue
        if isinstance(s, Rag24ReportSentence):
            doc_ids.update(refs[i] for i in s.citations if 0 <= i < len(refs))
        else:
            doc_ids.update(str(c) for c in s.citations)
    if not cited_only:
        doc_ids.update(str(r) for r in refs)
    return doc_ids


def write_pydantic_json_list(objs: list[BaseModel], out: Any) -> None:
    """Write models as compact JSONL without `None` fields, to a path (`.gz` compressed) or stream."""

    def write(stream: Any) -> None:
        for obj in objs:
            stream.write(
                json.dumps(obj.model_dump(mode="json", exclude_none=True), separators=(",", ":")) + "\n"
            )

    if isinstance(out, (str, Path)):
        if str(out).endswith(".gz"):
            import gzip

            with gzip.open(out, "wt", encoding="utf-8") as f:
                write(f)
        else:
            with open(out, "w", encoding="utf-8") as f:
                write(f)
    else:
        write(out)


__all__ = [
    "Report",
    "ReportSentence",
    "extract_doc_ids_from_report",
    "load_report",
    "write_pydantic_json_list",
]
