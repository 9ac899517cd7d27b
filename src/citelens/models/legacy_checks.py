"""The pre-spec RAGTIME checks behind `Report.verify_ragtime()` without a spec.

Kept for callers of the old API. Hard problems raise RuntimeError; soft ones are
`ReportFormatWarning`s (the reference library prints them). Confidences outside 0-100
are clamped in place, as before.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING

from citelens.models.metadata import TaskType
from citelens.models.sentences import RagtimeReportSentence

if TYPE_CHECKING:
    from citelens.models.report import Report

_UUID_SEGMENT = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9]+){4}_[A-Za-z0-9]+$")
_EXAMPLE_ID = "47601789-65d8-4706-9bde-fc89fccfdf14_159897"


class ReportFormatWarning(UserWarning):
    """A report problem that does not stop processing."""


def verify_ragtime(report: Report, check_doc_ids: bool = True) -> bool:
    """Run the legacy checks in their historical order; True when nothing raised."""
    sentences = report.responses or []
    ragtime = [s for s in sentences if isinstance(s, RagtimeReportSentence)]
    if report.metadata.task not in (TaskType.ENGLISH, TaskType.MULTILINGUAL):
        raise RuntimeError(
            f"Ragtime Report requires `metadata.task` to be set to either "
            f"{TaskType.MULTILINGUAL} or {TaskType.ENGLISH}, but is set to {report.metadata.task}"
        )
    cited = {doc_id for s in ragtime for doc_id in s.citations or {}}
    referenced = set(report.references or [])
    if cited != referenced:
        raise RuntimeError(
            f"Ragtime Report format invalid: citations and reference set must match. However, "
            f"citation set is {cited} while reference set is {referenced}."
        )
    for s in ragtime:
        for doc_id, confidence in (s.citations or {}).items():
            if 0.0 <= confidence <= 100.0:
                continue
            warnings.warn(
                f"Ragtime Report format invalid confidence: citation confidences must be between 0.0 "
                f"and 100.0, but found confidence {confidence} in sentence {s}. Limiting to valid "
                f"range.",
                ReportFormatWarning,
                stacklevel=3,
            )
            s.citations[doc_id] = min(max(confidence, 0.0), 100.0)  # type: ignore[index]
    if report.is_ragtime and check_doc_ids:
        for s in ragtime:
            for doc_id in s.citations or {}:
                if not _UUID_SEGMENT.match(doc_id):
                    warnings.warn(
                        f"Ragtime Report format invalid docid? document_id {doc_id} does not look "
                        f"like {_EXAMPLE_ID!r}; maybe it is from the wrong collection?",
                        ReportFormatWarning,
                        stacklevel=3,
                    )
    for sentence in sentences:
        if not sentence.citations:
            warnings.warn(
                f"Ragtime Report format contains empty citations: {sentence}",
                ReportFormatWarning,
                stacklevel=3,
            )
    return True
