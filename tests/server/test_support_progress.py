"""The support check of a large file (setting `support` on): judged in the background with
work-done progress, cancellable, and the diagnostics that follow are the CLI's."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

from lsprotocol import types

from tests.helpers.lsp_session import cli_findings, diagnostics, open_document

DATA = Path(__file__).parents[1] / "data"
COPIES = 60  # kiddie run2 has 20 citations: 1,200 in all, over the server threshold


def _large_run(workspace: Path) -> tuple[Path, str]:
    lines = (DATA / "runs" / "kiddie_run2.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for n in range(COPIES):
        for line in lines:
            report = json.loads(line)
            for sentence in report["responses"]:
                sentence["text"] += f" Copy {n}."  # distinct sentences: distinct judgements
            out.append(json.dumps(report))
    (workspace / "citelens.toml").write_text('spec = "kiddie"\nsupport = true\n', encoding="utf-8")
    path = workspace / "large.jsonl"
    text = "\n".join(out) + "\n"
    path.write_text(text, encoding="utf-8")
    return path, text


def _support_codes(findings) -> Counter:
    return Counter(c for c in findings if c.startswith(("citation_", "support_")))


async def test_a_large_support_check_reports_progress_then_publishes_the_cli_findings(vscode, workspace):
    path, text = _large_run(workspace)
    uri = open_document(vscode, path, text)
    found = await diagnostics(vscode, vscode.profile, uri, 1)
    # one batch; a second one when the settings were re-read meanwhile and made a new judge
    # (with nothing or everything left to judge): each begins and ends the same way
    batches = list(vscode.progress_reports.values())
    assert 1 <= len(batches) <= 2
    assert all(b[0].kind == "begin" and "support" in b[0].title and b[0].cancellable for b in batches)
    assert all(b[-1].kind == "end" and b[-1].message == "done" for b in batches)
    reports = max(batches, key=lambda b: sum(r.kind == "report" for r in b))  # the one that judged
    steps = [r for r in reports if r.kind == "report"]
    assert len(steps) >= 2 and steps[-1].percentage == 100 and steps[-1].message == "1,200/1,200 citations"
    assert [r.percentage for r in steps] == sorted(r.percentage for r in steps)
    assert reports[-1].kind == "end" and reports[-1].message == "done"
    expected = cli_findings(path, "--support", "--executor", "serial", "--support-cache", "none")
    assert _support_codes(d.code for d in found) == _support_codes(f["code"] for f in expected)
    assert sum(_support_codes(d.code for d in found).values()) > 100


async def test_cancelling_the_support_check_still_publishes_the_findings(vscode, workspace):
    path, text = _large_run(workspace)
    uri = open_document(vscode, path, text)

    async def begun() -> None:  # a cancel before `begin` would be for a token not yet begun
        while not vscode.progress_reports or not next(iter(vscode.progress_reports.values())):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(begun(), 30)
    token = next(iter(vscode.progress_reports))
    vscode.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    found = await diagnostics(vscode, vscode.profile, uri, 1)
    assert vscode.progress_reports[token][-1].kind == "end"
    assert vscode.progress_reports[token][-1].message == "cancelled"
    expected = cli_findings(path, "--support", "--executor", "serial", "--support-cache", "none")
    assert _support_codes(d.code for d in found) == _support_codes(f["code"] for f in expected)


async def test_a_small_file_is_checked_without_a_progress_notification(vscode, workspace):
    path, text = _large_run(workspace)
    small = "\n".join(text.splitlines()[:2]) + "\n"
    path.write_text(small, encoding="utf-8")
    uri = open_document(vscode, path, small)
    found = await diagnostics(vscode, vscode.profile, uri, 1)
    assert not vscode.progress_reports
    assert any(d.code in ("citation_weak", "citation_unsupported") for d in found)
