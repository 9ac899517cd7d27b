"""The support part of `citelens check --support` output: per report and per run shares,
seed 2's hallucination metrics, and (for JSON) every verdict with its evidence offsets."""

from __future__ import annotations

from typing import Any

from citelens.support.run import ReportSupport, run_totals

_METRICS = (
    "groundedness_score",
    "hallucination_rate",
    "supported_ratio",
    "partial_ratio",
    "unsupported_ratio",
)


def metrics_dict(report: ReportSupport) -> dict[str, Any]:
    m = report.hallucination_metrics()
    out: dict[str, Any] = {k: round(getattr(m, k), 4) for k in _METRICS}
    out.update(num_spans=m.num_spans, num_weak_citations=m.num_weak_citations)
    return out


def report_document(report: ReportSupport) -> dict[str, Any]:
    return {
        "topic_id": report.topic_id,
        "counts": dict(report.counts()),
        "shares": {k: round(v, 4) for k, v in report.shares().items()},
        "hallucination_metrics": metrics_dict(report),
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


def file_document(path: str, reports: list[ReportSupport]) -> dict[str, Any]:
    totals = run_totals(reports)
    totals["shares"] = {k: round(v, 4) for k, v in totals["shares"].items()}
    return {"path": path, "run": totals, "reports": [report_document(r) for r in reports]}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def text_lines(path: str, reports: list[ReportSupport]) -> list[str]:
    """One line per report and one for the run."""
    lines = []
    for n, r in enumerate(reports, start=1):
        s, grounded = r.shares(), r.groundedness()
        c = r.counts()
        extra = "".join(f", {c[k]} {k}" for k in ("unchecked", "uncited") if c[k])
        lines.append(
            f"{path}: report {n} (topic {r.topic_id}): {sum(c.values())} sentences{extra}: "
            f"supported {_pct(s['supported'])}, partial {_pct(s['partial'])}, unsupported {_pct(s['unsupported'])}; "
            f"groundedness {grounded:.2f}, hallucination rate {1.0 - grounded:.2f}"
        )
    t = run_totals(reports)
    sh = t["shares"]
    lines.append(
        f"{path}: run: {t['reports']} reports, {t['sentences']} sentences: supported {_pct(sh['supported'])}, "
        f"partial {_pct(sh['partial'])}, unsupported {_pct(sh['unsupported'])}"
    )
    return lines
