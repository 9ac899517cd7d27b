"""The overview's charts as inline SVG (no script, no external file): findings per code,
support per topic as stacked bars, and several runs side by side.

Colours come from CSS classes of the page's stylesheet (`sev-error`, `v-supported`, ...),
so the charts follow the page's light or dark theme. Every label is XML-escaped.
"""

from __future__ import annotations

from html import escape

from citelens.overview.model import CodeRow, RunOverview, TopicRow

BAR_HEIGHT, GAP, LABEL_WIDTH, BAR_WIDTH = 18, 6, 200, 420
#: topics drawn in the per-topic chart (the table below it lists them all)
MAX_TOPICS = 60
SUPPORT_PARTS = ("supported", "partial", "unsupported", "unchecked")


def _text(x: float, y: float, text: str, cls: str = "", anchor: str = "start") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{c}>{escape(text)}</text>'


def _rect(x: float, y: float, w: float, h: float, cls: str, title: str) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{h}" class="{cls}">'
        f"<title>{escape(title)}</title></rect>"
    )


def _svg(height: float, body: list[str], label: str) -> str:
    width = LABEL_WIDTH + BAR_WIDTH + 80
    return (
        f'<svg class="chart" role="img" aria-label="{escape(label)}" viewBox="0 0 {width} {height:.0f}" '
        f'width="{width}" height="{height:.0f}" xmlns="http://www.w3.org/2000/svg">'
        + "".join(body)
        + "</svg>"
    )


def _short(text: str, n: int = 30) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def findings_chart(codes: list[CodeRow]) -> str:
    """One bar per (code, severity), longest first."""
    if not codes:
        return '<p class="empty">No findings.</p>'
    top = max(c.count for c in codes)
    body = []
    for i, c in enumerate(codes):
        y = i * (BAR_HEIGHT + GAP) + 4
        w = BAR_WIDTH * c.count / top
        body.append(_text(LABEL_WIDTH - 8, y + 13, f"{c.code} ({c.severity})", anchor="end"))
        body.append(
            _rect(LABEL_WIDTH, y, w, BAR_HEIGHT, f"bar sev-{c.severity}", f"{c.code}: {c.count} {c.severity}")
        )
        body.append(_text(LABEL_WIDTH + w + 6, y + 13, str(c.count), "count"))
    return _svg(len(codes) * (BAR_HEIGHT + GAP) + 8, body, "findings per code")


def _stacked(y: float, counts: dict[str, int], title: str) -> list[str]:
    total = sum(counts.get(p, 0) for p in SUPPORT_PARTS)
    out, x = [], float(LABEL_WIDTH)
    for part in SUPPORT_PARTS:
        n = counts.get(part, 0)
        if not n:
            continue
        w = BAR_WIDTH * n / total
        out.append(_rect(x, y, w, BAR_HEIGHT, f"bar v-{part}", f"{title}: {n} {part} of {total}"))
        x += w
    return out


def support_chart(topics: list[TopicRow]) -> str:
    """One stacked bar per topic: the shares of its judged sentences by verdict."""
    shown = [t for t in topics if sum(t.verdicts.values())][:MAX_TOPICS]
    if not shown:
        return (
            '<p class="empty">No support verdicts (check with <code>--support</code> to judge citations).</p>'
        )
    body = []
    for i, t in enumerate(shown):
        y = i * (BAR_HEIGHT + GAP) + 4
        body.append(_text(LABEL_WIDTH - 8, y + 13, _short(t.topic_id), anchor="end"))
        body += _stacked(y, t.verdicts, f"topic {t.topic_id}")
    svg = _svg(len(shown) * (BAR_HEIGHT + GAP) + 8, body, "support per topic")
    more = sum(1 for t in topics if sum(t.verdicts.values())) - len(shown)
    return svg + (
        f'<p class="note">The first {len(shown)} topics; the table lists all.</p>' if more > 0 else ""
    )


def comparison_chart(runs: list[RunOverview]) -> str:
    """One row per run, like a leaderboard: errors per report, then the support shares."""
    body = []
    half = BAR_WIDTH / 2 - 30
    worst = max((r.findings.errors / r.reports if r.reports else 0.0) for r in runs) or 1.0
    for i, r in enumerate(runs):
        y = i * (BAR_HEIGHT + GAP) + 22
        name = _short(r.path.rsplit("/", 1)[-1])
        body.append(_text(LABEL_WIDTH - 8, y + 13, name, anchor="end"))
        per = r.findings.errors / r.reports if r.reports else 0.0
        body.append(
            _rect(
                LABEL_WIDTH,
                y,
                half * per / worst,
                BAR_HEIGHT,
                "bar sev-error",
                f"{r.path}: {per:.2f} errors per report",
            )
        )
        body.append(_text(LABEL_WIDTH + half * per / worst + 4, y + 13, f"{per:.2f}", "count"))
        total = sum(r.support.sentences.get(p, 0) for p in SUPPORT_PARTS) if r.support is not None else 0
        if r.support is not None and total:
            x0 = LABEL_WIDTH + half + 56
            for part in SUPPORT_PARTS:
                n = r.support.sentences.get(part, 0)
                w = half * n / total
                if w:
                    body.append(
                        _rect(x0, y, w, BAR_HEIGHT, f"bar v-{part}", f"{r.path}: {n} {part} of {total}")
                    )
                x0 += w
    body.append(_text(LABEL_WIDTH, 12, "errors per report", "axis"))
    body.append(_text(LABEL_WIDTH + half + 56, 12, "sentences by verdict", "axis"))
    return _svg(len(runs) * (BAR_HEIGHT + GAP) + 26, body, "runs side by side")
