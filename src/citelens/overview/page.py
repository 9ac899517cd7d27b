"""The overview as one self-contained HTML file.

Scripts and styles are inline and allowed by their SHA-256 under a strict
Content-Security-Policy (nothing else may load: no network, no other script, no
plugin, no form); the run data sits in a `<script type="application/json">` block with
`<` written as `\\u003c`, so report text cannot close it. What the page says about each
run is escaped here; the tables and the drill-down are built by `page.js` from the data.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from html import escape
from importlib.resources import files

from citelens.overview.charts import comparison_chart, findings_chart, support_chart
from citelens.overview.model import Overview, RunOverview, as_json


@cache
def _asset(name: str) -> str:
    return files("citelens.overview").joinpath(name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def content_security_policy(script: str, style: str) -> str:
    """Only the page's own script and stylesheet; images only as data: URIs."""
    return (
        f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def embedded_json(data: object) -> str:
    """JSON safe inside a `<script>` element: no `<`, `>` or `&` appear literally."""
    text = as_json(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "–"


def _judged(verdicts: dict[str, int]) -> int:
    return verdicts["supported"] + verdicts["partial"] + verdicts["unsupported"]


def _card(label: str, value: str, test_id: str) -> str:
    return f'<div class="card" data-testid="{test_id}"><b>{escape(value)}</b>{escape(label)}</div>'


def _codes_table(run: RunOverview) -> str:
    if not run.codes:
        return ""
    rows = "".join(
        f'<tr data-code="{escape(c.code)}" data-severity="{c.severity}">'
        f'<td><a href="{escape(c.docs or "#")}">{escape(c.code)}</a></td>'
        f'<td><span class="badge {c.severity}">{c.severity}</span></td>'
        f'<td class="num count">{c.count}</td><td>{escape(c.summary)}</td></tr>'
        for c in run.codes
    )
    return (
        '<table class="codes"><thead><tr><th>code</th><th>severity</th><th class="num">findings</th>'
        f"<th>what it means</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _support_section(run: RunOverview) -> str:
    if run.support is None:
        return (
            '<h3>Support</h3><p class="empty">Citations were not judged; '
            "<code>citelens report --support</code> adds the verdicts.</p>"
        )
    s = run.support.sentences
    judged = s["supported"] + s["partial"] + s["unsupported"]
    grounded = f"{run.support.groundedness:.2f}" if run.support.groundedness is not None else "–"
    groups = "".join(
        f'<tr data-group="{escape(g.key)}"><td>{escape(g.judge)}</td><td>{escape(g.tier or "–")}</td>'
        f'<td class="num">{sum(g.verdicts.values())}</td>'
        + "".join(
            f'<td class="num" data-verdict="{k}" data-count="{g.verdicts[k]}">'
            f"{_pct(g.verdicts[k], _judged(g.verdicts))}</td>"
            for k in ("supported", "partial", "unsupported")
        )
        + f'<td class="num" data-verdict="unchecked" data-count="{g.verdicts["unchecked"]}">'
        f"{g.verdicts['unchecked']}</td></tr>"
        for g in run.support.by_judge_tier
    )
    return (
        "<h3>Support</h3>"
        f'<div class="cards">{_card("sentences supported", _pct(s["supported"], judged), "supported-share")}'
        f"{_card('partly supported', _pct(s['partial'], judged), 'partial-share')}"
        f"{_card('unsupported', _pct(s['unsupported'], judged), 'unsupported-share')}"
        f"{_card('groundedness (mean)', grounded, 'groundedness')}</div>"
        "<h4>Citations by judge and tier</h4>"
        '<p class="muted">Shares of the judged citations of each judge, per tier. A lexical '
        "verdict is high tier only when it is &ldquo;unsupported&rdquo; with almost nothing of the "
        "sentence found, or another amount; its low tier finds words, not meaning. A model "
        "judge's verdicts are high tier.</p>"
        '<table class="judges"><thead><tr><th>judge</th><th>tier</th><th class="num">citations</th>'
        '<th class="num">supported</th><th class="num">partial</th><th class="num">unsupported</th>'
        '<th class="num">unchecked</th></tr></thead>'
        f"<tbody>{groups}</tbody></table>"
        "<h4>Support per topic</h4>" + support_chart(run.topics)
    )


def _run_section(run: RunOverview, r: int) -> str:
    f = run.findings
    spec = escape(run.spec or "no spec")
    return (
        f'<section class="run" id="run-{r}" data-path="{escape(run.path)}">'
        f"<h2>{escape(run.path)}</h2>"
        f'<p class="muted">spec <code>{spec}</code>: {escape(run.spec_description)}</p>'
        f'<div class="cards">{_card("reports", str(run.reports), "reports")}'
        f"{_card('errors', str(f.errors), 'errors')}{_card('warnings', str(f.warnings), 'warnings')}"
        f"{_card('infos', str(f.infos), 'infos')}{_card('topics', str(len(run.topics)), 'topics')}</div>"
        "<h3>Findings by code</h3>"
        + findings_chart(run.codes)
        + _codes_table(run)
        + _support_section(run)
        + f'<h3>Topics</h3><div class="paged" id="topics-{r}"></div>'
        f'<h3>Reports</h3><p class="muted">Click a report for its sentences, verdicts, evidence and findings.</p>'
        f'<div class="paged" id="reports-{r}"></div><div class="detail" id="detail-{r}"></div></section>'
    )


def _comparison(overview: Overview) -> str:
    if len(overview.runs) < 2:
        return ""
    rows = []
    for r in overview.runs:
        s = r.support.sentences if r.support is not None else None
        judged = (s["supported"] + s["partial"] + s["unsupported"]) if s else 0
        grounded = r.support.groundedness if r.support is not None else None
        rows.append(
            f'<tr><td><a href="#run-{overview.runs.index(r)}">{escape(r.path)}</a></td><td>{escape(r.spec or "")}</td>'
            f'<td class="num">{r.reports}</td><td class="num">{r.findings.errors}</td><td class="num">{r.findings.warnings}</td>'
            f'<td class="num">{_pct(s["supported"], judged) if s else "–"}</td>'
            f'<td class="num">{f"{grounded:.2f}" if grounded is not None else "–"}</td></tr>'
        )
    return (
        '<section id="compare"><h2>Runs side by side</h2>'
        + comparison_chart(overview.runs)
        + '<table class="leaderboard"><thead><tr><th>run</th><th>spec</th><th class="num">reports</th>'
        '<th class="num">errors</th><th class="num">warnings</th><th class="num">supported</th>'
        f'<th class="num">groundedness</th></tr></thead><tbody>{"".join(rows)}</tbody></table></section>'
    )


def render_page(overview: Overview) -> str:
    """The whole page: one string, nothing to fetch."""
    script, style = _asset("page.js"), _asset("page.css")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(script, style)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(overview.title)}</title><style>{style}</style></head><body>"
        f"<header><h1>{escape(overview.title)}</h1>"
        f'<p class="muted">Made by citelens {escape(overview.version)}: the findings of '
        "<code>citelens check</code>, per run, topic and report.</p></header><main>"
        + _comparison(overview)
        + "".join(_run_section(run, r) for r, run in enumerate(overview.runs))
        + f'</main><script type="application/json" id="overview-data">{embedded_json(overview.to_data())}</script>'
        f"<script>{script}</script></body></html>\n"
    )
