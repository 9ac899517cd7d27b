"""The report data models of the TREC auto-judge framework, as pydantic v2 models.

A drop-in for `autojudge_base`'s `Report`, `Request`, `Document` and friends: switch the
import and keep working. Importing this package loads pydantic only.
"""

from __future__ import annotations

from citelens.models.document_record import Document, load_documents, stream_documents
from citelens.models.legacy_checks import ReportFormatWarning
from citelens.models.metadata import ReportMetaData, TaskType
from citelens.models.ranking import (
    RankedDocument,
    RetrievedDocuments,
    load_retrieved_docs,
    save_retrieved_docs,
)
from citelens.models.report import Report, extract_doc_ids_from_report, load_report, write_pydantic_json_list
from citelens.models.report_verification import ReportVerification, ReportVerificationError
from citelens.models.request import Request, load_requests_from_file, load_requests_from_irds
from citelens.models.run_folders import RunLoadWarning, load_runs_failsave
from citelens.models.sentences import (
    NeuclirReportSentence,
    Rag24ReportSentence,
    RagtimeReportSentence,
    ReportSentence,
    sentence_class_for,
    tag_of_sentence,
)
from citelens.models.verification import TrackSpecVerificationError

__all__ = [
    "Document",
    "NeuclirReportSentence",
    "Rag24ReportSentence",
    "RagtimeReportSentence",
    "RankedDocument",
    "Report",
    "ReportFormatWarning",
    "ReportMetaData",
    "ReportSentence",
    "ReportVerification",
    "ReportVerificationError",
    "Request",
    "RetrievedDocuments",
    "RunLoadWarning",
    "TaskType",
    "TrackSpecVerificationError",
    "extract_doc_ids_from_report",
    "load_documents",
    "load_report",
    "load_requests_from_file",
    "load_requests_from_irds",
    "load_retrieved_docs",
    "load_runs_failsave",
    "save_retrieved_docs",
    "sentence_class_for",
    "stream_documents",
    "tag_of_sentence",
    "write_pydantic_json_list",
]
