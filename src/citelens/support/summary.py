"""The support part of `citelens check --support` output: per report and per run shares,
seed 2's hallucination metrics, and (for JSON) every verdict with its evidence offsets.

The outputs read a `FileSupport`: the few figures per report the text summary needs, and
the full per-report documents for JSON, made only when asked for. It comes from the live
verdicts or, for an unchanged file, from the cache of finished files (finished.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from citelens.support.reports import ReportSupport

_METRICS = (
    "groundedness_score",
    "hallucination_rate",
    "supported_ratio",
    "partial_ratio",
    "unsupported_ratio",
)
_SHARED = ("supported", "partial", "unsupported")
_COUNTED = ("supported", "partial", "unsupported", "unchecked", "uncited")


class ReportFigures(NamedTuple):
    """What the text summary says about one report (a named tuple: a warm re-check
    imports this module, and a dataclass takes several times longer to make)."""

    topic_id: str | None
    counts: dict[str, int]  # sentences per verdict ("uncited": citing nothing)
    groundedness: float

    @classmethod
    def of(cls, report: ReportSupport) -> ReportFigures:
        return cls(report.topic_id, dict(report.counts()), report.groundedness())


class FileSupport:
    """The support part of one file's check result."""

    def __init__(
        self,
        figures: list[ReportFigures],
        documents: Callable[[], list[dict[str, Any]]],
        reports: list[ReportSupport] | None = None,
    ) -> None:
        self.figures = figures
        self._documents = documents
        self._made: list[dict[str, Any]] | None = None
        #: the live verdicts (None when read back from the cache of finished files)
        self.reports = reports

    @classmethod
    def of(cls, reports: list[ReportSupport]) -> FileSupport:
        return cls(
            [ReportFigures.of(r) for r in reports],
            lambda: [report_document(r) for r in reports],
            reports,
        )

    def report_documents(self) -> list[dict[str, Any]]:
        """Each report's verdicts as `--format json` prints them."""
        if self._made is None:
            self._made = self._documents()
        return self._made


#: what stands in for the figures of a report (or run) in which no citation was judged
NOT_JUDGED = "not judged: no documents; pass --docs or set corpora"
NOT_CITED = "not judged: no sentence cites a document"


def not_judged(counts: Mapping[str, int]) -> str | None:
    """Why there are no support figures (None: some citation was judged). Groundedness
    1.00 and hallucination 0.00 for reports in which nothing was judged would be false."""
    if any(counts.get(k, 0) for k in _SHARED):
        return None
    return NOT_JUDGED if counts.get("unchecked", 0) else NOT_CITED


def shares(counts: Mapping[str, int]) -> dict[str, float]:
    """Share of sentences supported / partial / unsupported among the judged ones."""
    judged = sum(counts.get(k, 0) for k in _SHARED)
    return {k: (counts.get(k, 0) / judged if judged else 0.0) for k in _SHARED}


def run_totals(figures: list[ReportFigures]) -> dict[str, Any]:
    """Per-run figures: sentence counts and shares over all reports."""
    counts = {k: sum(f.counts.get(k, 0) for f in figures) for k in _COUNTED}
    return {
        "reports": len(figures),
        "sentences": sum(sum(f.counts.values()) for f in figures),
        "counts": counts,
        "shares": shares(counts),
    }


def metrics_dict(report: ReportSupport) -> dict[str, Any]:
    m = report.hallucination_metrics()
    out: dict[str, Any] = {k: round(getattr(m, k), 4) for k in _METRICS}
    out.update(num_spans=m.num_spans, num_weak_citations=m.num_weak_citations)
    return out


def report_document(report: ReportSupport) -> dict[str, Any]:
    counts = report.counts()
    why = not_judged(counts)
    return {
        "topic_id": report.topic_id,
        "counts": dict(counts),
        "shares": None if why else {k: round(v, 4) for k, v in shares(counts).items()},
        "hallucination_metrics": None if why else metrics_dict(report),
        "not_judged": why,
        "sentences": [
            {
                "index": s.index,
                "text": s.text,
                "verdict": s.verdict.value if s.verdict is not None else None,
                "citations": [{"doc_id": c.doc_id, **v.to_dict()} for c, v in zip(s.citations, s.verdicts)],
            }
            for s in report.sentences
        ],
    }


def file_document(path: str, support: FileSupport) -> dict[str, Any]:
    totals = run_totals(support.figures)
    why = not_judged(totals["counts"])
    totals["shares"] = None if why else {k: round(v, 4) for k, v in totals["shares"].items()}
    totals["not_judged"] = why
    return {"path": path, "run": totals, "reports": support.report_documents()}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def text_lines(path: str, support: FileSupport) -> list[str]:
    """One line per report and one for the run."""
    lines = []
    for n, (topic_id, c, grounded) in enumerate(support.figures, start=1):
        supported, partial, unsupported = c.get("supported", 0), c.get("partial", 0), c.get("unsupported", 0)
        judged = supported + partial + unsupported
        extra = "".join(f", {c[k]} {k}" for k in ("unchecked", "uncited") if c.get(k))
        head = f"{path}: report {n} (topic {topic_id}): {sum(c.values())} sentences{extra}: "
        why = not_judged(c)
        if why:
            lines.append(head + why)
            continue
        lines.append(
            f"{head}supported {100 * supported / judged:.0f}%, partial {100 * partial / judged:.0f}%, "
            f"unsupported {100 * unsupported / judged:.0f}%; "
            f"groundedness {grounded:.2f}, hallucination rate {1.0 - grounded:.2f}"
        )
    t = run_totals(support.figures)
    sh = t["shares"]
    head = f"{path}: run: {t['reports']} reports, {t['sentences']} sentences: "
    why = not_judged(t["counts"])
    lines.append(
        head + why
        if why
        else f"{head}supported {_pct(sh['supported'])}, "
        f"partial {_pct(sh['partial'])}, unsupported {_pct(sh['unsupported'])}"
    )
    return lines
