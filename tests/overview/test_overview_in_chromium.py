"""The overview page in a real browser: headless chromium through playwright-core (the
same driver as the extension's end-to-end test), offline. The page must load with no
request beyond its own file and no CSP violation, draw its charts, show `citelens check`'s
counts, keep hostile text as text, post "reveal" for a clicked finding, and draw a
10,000-report run one page of rows at a time.

Set CITELENS_OVERVIEW_SCREENSHOTS=DIR to keep the screenshots (docs/images/overview/)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli_capture import run
from tests.helpers.overview_cases import (
    EXAMPLES,
    HOSTILE_SENTENCE,
    HOSTILE_TOPIC,
    ROOT,
    RUNS,
    expected_counts,
    hostile_run,
)

E2E = ROOT / "vscode-extension" / "e2e"
DRIVER = E2E / "overview-page.mjs"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM} (.ci/install-vscode-e2e)"
    ),
    pytest.mark.skipif(
        not (E2E / "node_modules" / "playwright-core").is_dir(),
        reason="playwright-core is not installed: run `npm ci` in vscode-extension/e2e",
    ),
]


def _page(capsys: pytest.CaptureFixture[str], out: Path, runs: list[Path], *options: str) -> None:
    code, _, err = run(capsys, "report", *runs, *options, "-o", out, "--force")
    assert code == 0, err


def _first_finding(expected: dict, path: Path) -> dict:
    first = min((f for f in expected["findings"] if f["line"] == 1), key=lambda f: f["column"])
    return {"path": str(path), "line": first["line"], "column": first["column"]}


def _sentences(path: Path, line: int = 0) -> list[str]:
    report = json.loads(path.read_text(encoding="utf-8").splitlines()[line])
    return [s["text"] for s in report.get("responses") or report.get("answer")]


def _matching(data: dict, needle: str) -> int:
    """Rows the page's filter keeps: any column's text contains the needle."""
    n = 0
    for row in data["runs"][0]["rows"]:
        cells = [
            row["number"],
            row["line"],
            row["topic_id"] or "",
            row["sentences"],
            row["findings"]["errors"],
        ]
        cells += [
            row["findings"]["warnings"],
            row["verdicts"]["supported"],
            -1 if row["groundedness"] is None else row["groundedness"],
        ]
        n += any(needle.lower() in str(c).lower() for c in cells)
    return n


def test_the_page_in_headless_chromium(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    monkeypatch.chdir(ROOT)  # the runs named as a user in the repository would
    from tests.helpers.report_factory import generate_run, topics_jsonl

    shots = os.environ.get("CITELENS_OVERVIEW_SCREENSHOTS")
    cases = []
    # four real runs with embedded documents, judged: the docs' screenshots
    kiddie = [(RUNS / f"kiddie_run{n}.jsonl").relative_to(ROOT) for n in (1, 2, 3, 4)]
    support = ("--spec", "kiddie", "--support", "--support-cache", "none")
    _page(capsys, tmp_path / "kiddie.html", kiddie, *support)
    first = expected_counts(capsys, kiddie[0], *support)
    cases.append(
        {
            "name": "four judged runs",
            "path": str(tmp_path / "kiddie.html"),
            "expect": {"runs": [first] + [expected_counts(capsys, k, *support) for k in kiddie[1:]]},
            "min_bars": 10,
            "first_sentences": _sentences(kiddie[0]),
            "marks": True,
            "first_finding": _first_finding(first, kiddie[0]),
            "screenshot": str(Path(shots) / "overview.png") if shots else None,
            "detail_screenshot": str(Path(shots) / "drill-down.png") if shots else None,
            "tiers_screenshot": str(Path(shots) / "judges-and-tiers.png") if shots else None,
        }
    )
    # a run with seeded mistakes and its topics (no support)
    mistakes = EXAMPLES / "rag26-with-mistakes.jsonl"
    options = ("--spec", "rag26", "--topics", str(EXAMPLES / "rag26-topics.tsv"))
    _page(capsys, tmp_path / "mistakes.html", [mistakes], *options)
    expected = expected_counts(capsys, mistakes, *options)
    cases.append(
        {
            "name": "seeded mistakes",
            "path": str(tmp_path / "mistakes.html"),
            "expect": {"runs": [expected]},
            "min_bars": len(expected["codes"]),
            "first_finding": _first_finding(expected, mistakes),
        }
    )
    # hostile text in sentences, ids, metadata, a document and the file name
    hostile = hostile_run(tmp_path)
    _page(capsys, tmp_path / "hostile.html", [hostile], *support)
    cases.append(
        {
            "name": "hostile text",
            "path": str(tmp_path / "hostile.html"),
            "expect": {"runs": [expected_counts(capsys, hostile, *support)]},
            "first_sentences": _sentences(hostile),
            "hostile": [HOSTILE_SENTENCE, HOSTILE_TOPIC],
        }
    )
    # 10,000 reports (generated, with seeded faults)
    lines, topics = generate_run("ragtime26", 10_000, 7)
    big = tmp_path / "big.jsonl"
    big.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    (tmp_path / "big.topics.jsonl").write_text(topics_jsonl(topics), encoding="utf-8")
    big_options = ("--spec", "ragtime26", "--topics", str(tmp_path / "big.topics.jsonl"))
    _page(capsys, tmp_path / "big.html", [big], *big_options)
    code, out, _ = run(capsys, "report", big, *big_options, "--format", "json")
    data = json.loads(out)
    needle = data["runs"][0]["rows"][0]["topic_id"]
    cases.append(
        {
            "name": "10,000 reports",
            "path": str(tmp_path / "big.html"),
            "expect": {"runs": [expected_counts(capsys, big, *big_options)]},
            "big": {"filter": needle, "matching": _matching(data, needle)},
        }
    )
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps(cases), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(DRIVER), str(spec)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, CHROMIUM=CHROMIUM),
    )
    assert proc.stdout.strip(), proc.stderr
    outcome = json.loads(proc.stdout.strip().splitlines()[-1])
    assert outcome["failures"] == [], "\n".join(outcome["failures"])
    assert proc.returncode == 0, proc.stderr
