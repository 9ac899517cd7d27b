"""`ReportVerification`: a whole submission (a list of `Report`s) against a track spec
and its topics, with autojudge-base's fluent interface.

Every check comes from the engine: the per-report rules through `check_report`, the
cross-report ones (missing, new and duplicate topics, exact narratives) through the
file-level rules of `citelens.check.rules.coverage` run on the reports' facts. What this
module adds is the reference's bookkeeping: one record per finding, the strict folding,
one aggregate record per coverage category, and fail-fast `raise_first`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from citelens.check import Finding as EngineFinding
from citelens.check import Policy, check_report
from citelens.check.rules.coverage import ReportFacts, check_coverage, report_facts, topic_findings
from citelens.check.view import ReportView
from citelens.models.verification import topic_info, wire_value
from citelens.specs import resolve_spec

if TYPE_CHECKING:
    from citelens.models.report import Report
    from citelens.specs import TrackSpec


class ReportVerificationError(Exception):
    """The first hard error of a verified submission (raised by `raise_first`)."""


@dataclass(frozen=True)
class VerificationFinding:
    """One record. Per-report findings have category "spec", the offending report's
    `origin` (path, team id, run id) and `topic`, and the engine's finding `code`;
    coverage findings have their category as code, a short `label` and no origin."""

    category: str
    message: str
    severity: str  # "error" | "warning"
    origin: tuple[str, str, str] | None = None
    topic: str | None = None
    label: str | None = None
    code: str | None = None


Finding = VerificationFinding  # autojudge-base's name for the record

#: coverage category -> (short label, whether it needs the topics file)
_COVERAGE = {
    "missing_topics": ("MISSING", True),
    "new_topics": ("NEW", True),
    "duplicate_topics": ("DUP", False),
    "narrative": ("NARRATIVE", True),
}


def local_path(path: Any) -> str:
    """A report's source path relative to the working directory ("?" when unknown)."""
    if path is None:
        return "?"
    try:
        return os.path.relpath(str(path))
    except ValueError:  # another drive (Windows)
        return str(path)


def _id_key(topic_id: str) -> tuple[int, int | str]:
    return (0, int(topic_id)) if topic_id.lstrip("-").isdigit() else (1, topic_id)


def fmt_ids(ids: Iterable[str]) -> str:
    """Topic ids for a message: integer ids as ranges ("1001-1005, 1008"), others listed
    (at most 12, then a count)."""
    ordered = sorted(set(ids), key=_id_key)
    if ordered and all(_id_key(t)[0] == 0 for t in ordered):
        numbers = [int(t) for t in ordered]
        runs: list[str] = []
        start = prev = numbers[0]
        for n in [*numbers[1:], None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            runs.append(str(start) if start == prev else f"{start}-{prev}")
            if n is not None:
                start = prev = n
        return ", ".join(runs)
    shown = ", ".join(ordered[:12])
    return shown + (f", ... (+{len(ordered) - 12} more)" if len(ordered) > 12 else "")


class ReportVerification:
    """Verify a submission, chaining the checks you want:

        ReportVerification(reports, "rag26", requests=requests).all().raise_first()

    then read `findings`, `errors`, `warnings` and `ok` (reports without a hard error).
    `spec` is a TrackSpec, a track id or None (structural checks only); `requests` maps
    topic id -> Request (length limits, and the topics for coverage); `strict` makes
    every finding an error.
    """

    def __init__(
        self,
        reports: Iterable[Report],
        spec: TrackSpec | str | None = None,
        *,
        requests: Mapping[str, Any] | None = None,
        strict: bool = False,
    ) -> None:
        self.reports = list(reports)
        self.spec = resolve_spec(spec)
        self.requests = dict(requests or {})
        self.strict = strict
        self.findings: list[VerificationFinding] = []
        self.ok = 0
        self._policy = Policy(self.spec, strict)
        self._coverage: dict[str, list[tuple[int | None, EngineFinding]]] | None = None

    @property
    def errors(self) -> list[VerificationFinding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[VerificationFinding]:
        return [f for f in self.findings if f.severity == "warning"]

    # --- per report -----------------------------------------------------------------
    def spec_compliant(self) -> ReportVerification:
        """Every report against the spec's rules; one record per finding."""
        for report in self.reports:
            md = report.metadata
            topic = str(md.topic_id)
            request = self.requests.get(topic)
            info = topic_info(request, self.spec) if self.spec is not None else None
            found = check_report(wire_value(report, self.spec), self.spec, info, strict=self.strict)
            if not any(f.severity == "error" for f in found):
                self.ok += 1
            origin = (local_path(getattr(report, "path", None)), md.team_id, md.run_id)
            self.findings += [
                VerificationFinding(
                    "spec",
                    f.message,
                    "error" if f.severity == "error" else "warning",
                    origin,
                    topic,
                    code=f.code,
                )
                for f in found
            ]
        return self

    # --- across reports -------------------------------------------------------------
    def _coverage_findings(self) -> dict[str, list[tuple[int | None, EngineFinding]]]:
        """The engine's file-level findings for this collection, by code (computed once)."""
        if self._coverage is None:
            topics = {
                str(tid): SimpleNamespace(id=str(tid), text=getattr(req, "title", None), limit=None)
                for tid, req in self.requests.items()
            }
            facts: list[ReportFacts] = []
            for index, report in enumerate(self.reports):
                view = ReportView.build(wire_value(report, self.spec), self.spec)
                facts.append(report_facts(index, view))
            by_code: dict[str, list[tuple[int | None, EngineFinding]]] = {}

            def add(index: int | None, finding: EngineFinding) -> None:
                by_code.setdefault(finding.code, []).append((index, finding))

            check_coverage(facts, self.spec, topics or None, add)
            if topics:
                for f in facts:
                    for finding in topic_findings(f, self.spec, topics):
                        add(f.index, finding)
            self._coverage = by_code
        return self._coverage

    def _record(self, category: str, describe: str) -> ReportVerification:
        """One aggregate record for `category`, listing the topics it is about."""
        label, needs_topics = _COVERAGE[category]
        if needs_topics and not self.requests:
            return self
        found = self._coverage_findings().get(category, [])
        if category == "missing_topics":
            ids = [t for _, f in found for t in f.data.get("missing", [])]
        else:
            ids = [f.topic_id for _, f in found if f.topic_id is not None]
        if not ids:
            return self
        severity = self._policy.severity(category) or "error"
        message = describe.format(n=len(set(ids)), ids=fmt_ids(ids))
        self.findings.append(VerificationFinding(category, message, severity, label=label, code=category))
        return self

    def complete_topics(self) -> ReportVerification:
        """Every topic of the topics file has a report (nothing to do without topics)."""
        return self._record("missing_topics", "{n} topic(s) in the topics file have no report: {ids}")

    def no_extra_topics(self) -> ReportVerification:
        """No report is for a topic the topics file lacks (nothing to do without topics)."""
        return self._record("new_topics", "{n} report topic id(s) are not in the topics file: {ids}")

    def unique_topics(self) -> ReportVerification:
        """No topic has more than one report."""
        return self._record("duplicate_topics", "{n} topic id(s) have more than one report: {ids}")

    def exact_narratives(self) -> ReportVerification:
        """Under specs that require it, each narrative copies its topic's text exactly."""
        if self.spec is None or not self.spec.require_exact_narrative:
            return self
        return self._record(
            "narrative", "{n} report(s) do not copy the topic text exactly as narrative: {ids}"
        )

    def coverage(self) -> ReportVerification:
        """All the cross-report checks."""
        return self.complete_topics().no_extra_topics().unique_topics().exact_narratives()

    def all(self) -> ReportVerification:
        """Per-report rules, then the cross-report checks."""
        return self.spec_compliant().coverage()

    def raise_first(self) -> ReportVerification:
        """Raise `ReportVerificationError` with the first hard error; warnings never raise."""
        for f in self.findings:
            if f.severity == "error":
                raise ReportVerificationError(f.message)
        return self
