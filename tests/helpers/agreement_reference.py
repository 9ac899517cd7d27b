"""autojudge-base 1.0.0 as the agreement oracle: per-report and cross-report finding
categories, captured from the library's own rule engine, offline.

`TrackSpecVerification._add(category, message)` is the one place every per-report
finding passes through; a subclass records the category there (the library's
`ReportVerification.spec_compliant` re-labels them all "spec"). The cross-report
categories come from `ReportVerification(...).coverage()` unchanged.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

#: spec ids CiteLens shares with autojudge-base 1.0.0
SHARED_SPECS = ("rag26", "rag25", "rag25-autojudge", "ragtime25", "ragtime26", "dragun25", "kiddie")


@cache
def ref() -> SimpleNamespace:
    """The reference modules, imported offline (see tests/reference_oracle.py)."""
    from tests.helpers.reference_oracle import offline_nltk

    offline_nltk()
    from autojudge_base import report, report_spec_verification, report_verification, request, track_spec

    class Recording(report_spec_verification.TrackSpecVerification):
        def __init__(self, *a: Any, **k: Any):
            super().__init__(*a, **k)
            self.categories: list[str] = []

        def _add(self, category: str, message: str) -> None:
            self.categories.append(category)
            super()._add(category, message)

    return SimpleNamespace(
        report=report,
        request=request,
        track_spec=track_spec,
        verification=report_verification,
        Recording=Recording,
    )


def load(value: Any):
    """The reference `Report` for a decoded line, or None when the library cannot load it."""
    from pydantic import ValidationError

    try:
        return ref().report.Report.model_validate(value)
    except (ValidationError, ValueError, TypeError, RuntimeError, AttributeError, KeyError):
        return None


def load_line(line: str):
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return load(value)


@cache
def spec(spec_id: str, anchored: bool = True):
    """The library's spec; `anchored` matches doc ids against the WHOLE id (CiteLens's
    documented deviation) by wrapping the pattern, since the library uses `re.match`."""
    s = ref().track_spec.get_spec(spec_id)
    if anchored and s.docid_pattern:
        s = dataclasses.replace(s, docid_pattern=f"(?:{s.docid_pattern})\\Z")
    return s


def report_categories(
    report, spec_id: str, requests: dict | None, anchored: bool = True, strict: bool = False
) -> set[tuple[str, str]]:
    """(category, severity) of every per-report finding, as ReportVerification computes it
    (`strict`: every finding an error, as ReportVerification(strict=True))."""
    sp = spec(spec_id, anchored)
    request = (requests or {}).get(str(report.metadata.topic_id))
    v = ref().Recording(report, sp, request=request).run()
    return {(c, "warning" if c in sp.smells and not strict else "error") for c in v.categories}


def coverage_categories(
    reports: Iterable, spec_id: str, requests: dict | None, strict: bool = False
) -> set[tuple[str, str]]:
    """The cross-report (category, severity) set of `ReportVerification(...).spec_compliant()
    .coverage()`. Its per-report findings (all labelled "spec") must be exactly the ones
    the recording subclass captured: checked here, so the instrumentation misses nothing."""
    reports = list(reports)
    sp = spec(spec_id)
    v = ref().verification.ReportVerification(reports, sp, requests=requests or {}, strict=strict)
    v.spec_compliant().coverage()
    recorded = sum(
        len(ref().Recording(r, sp, request=(requests or {}).get(str(r.metadata.topic_id))).run().categories)
        for r in reports
    )
    assert recorded == sum(1 for f in v.findings if f.category == "spec"), "instrumentation lost findings"
    return {(f.category, f.severity) for f in v.findings if f.category != "spec"}


def coverage_topics(reports: list, spec_id: str, requests: dict | None) -> dict[str, set[str]]:
    """Which topic ids each cross-report category is about, from the reference's own
    normalised topic ids (the library's messages compress them into ranges)."""
    from collections import Counter

    ids = [str(r.metadata.topic_id) for r in reports]
    expected = {tid: getattr(q, "title", None) for tid, q in (requests or {}).items()}
    out = {"duplicate_topics": {t for t, c in Counter(ids).items() if c > 1}}
    if requests:
        out["missing_topics"] = set(expected) - set(ids)
        out["new_topics"] = set(ids) - set(expected)
        if spec(spec_id).require_exact_narrative:
            out["narrative"] = {
                str(r.metadata.topic_id)
                for r in reports
                if str(r.metadata.topic_id) in expected
                and r.metadata.narrative != expected[str(r.metadata.topic_id)]
            }
    return out


def load_requests(path: Path) -> dict:
    return {str(q.request_id): q for q in ref().request.load_requests_from_file(path)}
