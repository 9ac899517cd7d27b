"""Opening a big run shows a progress bar (begin, the share of reports checked, end) until
its first diagnostics are out, for a client that takes work-done progress; a client that
does not is never asked to create one. The diagnostics are the CLI's either way."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from pathlib import Path

from lsprotocol import types

from citelens_server.runtime.open_progress import CHECKING_SHARE, PROGRESS_CHARS
from tests.helpers.lsp_session import (
    PROFILES,
    as_tuples,
    diagnostics,
    expected_diagnostics,
    open_document,
    start,
)
from tests.helpers.report_factory import generate_run


def _big_run(folder: Path) -> tuple[Path, str]:
    lines, _ = generate_run("rag25", 500, 7)
    block = "\n".join(lines) + "\n"
    text = block * (PROGRESS_CHARS // len(block) + 1)
    path = folder / "big.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text


async def _until_ended(client, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not any(r and r[-1].kind == "end" for r in client.progress_reports.values()):
        assert loop.time() < deadline, "the progress bar never ended"
        with suppress(TimeoutError):
            await asyncio.wait_for(client.wait_for_notification(types.PROGRESS), 1)


async def test_a_big_run_shows_the_share_of_reports_checked_until_its_diagnostics(vscode, workspace):
    path, text = _big_run(workspace)
    uri = open_document(vscode, path, text)
    found = await diagnostics(vscode, vscode.profile, uri, 1)
    await _until_ended(vscode)
    (bar,) = vscode.progress_reports.values()
    begin, *steps, end = bar
    assert begin.kind == "begin" and begin.title == "Checking big.jsonl" and begin.percentage == 0
    assert not begin.cancellable
    assert end.kind == "end" and end.message == "checked"
    assert len(steps) >= 3 and all(s.kind == "report" for s in steps)
    percentages = [s.percentage for s in steps]
    assert percentages == sorted(percentages) and percentages[0] > 0 and percentages[-1] <= CHECKING_SHARE
    assert steps[-1].message.endswith(f"of {len(text.splitlines()):,} reports")
    assert as_tuples(found) == expected_diagnostics(path, text, "utf-16")


async def test_a_client_without_work_done_progress_is_never_asked_for_a_bar(fresh, workspace):
    caps = PROFILES["vscode-utf16-push"][0]()
    caps.window = types.WindowClientCapabilities(work_done_progress=False)
    fresh.profile = await start(fresh, "vscode-utf16-push", workspace, capabilities=caps)
    path, text = _big_run(workspace)
    uri = open_document(fresh, path, text)
    found = await diagnostics(fresh, fresh.profile, uri, 1)
    assert len(found) > 0
    await asyncio.sleep(0.5)  # a bar would have been asked for before the check ended
    assert fresh.progress_reports == {}  # no window/workDoneProgress/create, no $/progress


async def test_a_small_run_shows_no_bar(vscode, workspace):
    lines, _ = generate_run("rag25", 200, 7)
    text = "\n".join(lines) + "\n"
    path = workspace / "small.jsonl"
    path.write_text(text, encoding="utf-8")
    uri = open_document(vscode, path, text)
    found = await diagnostics(vscode, vscode.profile, uri, 1)
    assert as_tuples(found) == expected_diagnostics(
        path, text, "utf-16"
    )  # the first check after a lazy start
    assert vscode.progress_reports == {}
