"""A big document's first check on several processes gives exactly the findings of one
process (and of `citelens check`), and its later edits re-check as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.check.workers import MIN_REPORTS, can_fork
from citelens.session import TextChange, Workspace
from citelens.session.first_check import check_in_processes
from tests.helpers.report_factory import generate_run

pytestmark = pytest.mark.skipif(not can_fork(), reason="forks processes")


def _rows(doc):
    return [(f.code, f.severity, f.message, f.pointer, f.start, f.end) for f in doc.result.findings]


@pytest.fixture
def big(tmp_path: Path) -> tuple[Workspace, str]:
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    lines, _ = generate_run("rag25", MIN_REPORTS + 300, 3)
    return Workspace([tmp_path]), "\n".join(lines) + "\n"


def test_the_findings_are_those_of_one_process(big, tmp_path: Path) -> None:
    ws, text = big
    one = ws.open((tmp_path / "one.jsonl").as_uri(), text, 1)
    many = ws.open((tmp_path / "many.jsonl").as_uri(), text, 1)
    told: list[tuple[int, int]] = []
    assert check_in_processes(many, 3, lambda n, total: told.append((n, total)))
    assert _rows(many) == _rows(one) and len(_rows(one)) > MIN_REPORTS
    assert len({total for _, total in told}) == 1 and told[0][1] >= MIN_REPORTS  # one total: all reports
    assert [n for n, _ in told] == sorted(n for n, _ in told)
    # an edit afterwards re-checks its report as in a document checked in one process
    at = text.index('"text": "') + 9
    for doc in (one, many):
        doc.apply_changes([TextChange(at, at, "x")], version=2)
    assert _rows(many) == _rows(one)


def test_the_reports_checked_in_processes_are_not_checked_again(
    big, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first use of a document's checker starts its outcomes afresh: the outcomes
    the processes computed must land in the list the result then reads."""
    ws, text = big
    one = ws.open((tmp_path / "one.jsonl").as_uri(), text, 1)
    many = ws.open((tmp_path / "many.jsonl").as_uri(), text, 1)  # its checker never used yet
    expected = _rows(one)
    assert check_in_processes(many, 2)
    checked_again: list[object] = []
    real = many.checker.report_outcome
    monkeypatch.setattr(many.checker, "report_outcome", lambda *a: checked_again.append(a) or real(*a))
    assert _rows(many) == expected
    assert checked_again == []


def test_a_small_or_already_checked_document_is_left_alone(big, tmp_path: Path) -> None:
    ws, text = big
    small = ws.open((tmp_path / "small.jsonl").as_uri(), "\n".join(text.splitlines()[:50]) + "\n", 1)
    assert not check_in_processes(small, 3)
    checked = ws.open((tmp_path / "checked.jsonl").as_uri(), text, 1)
    checked.result  # noqa: B018  (checked in this process)
    assert not check_in_processes(checked, 3)
    assert not check_in_processes(ws.open((tmp_path / "one.jsonl").as_uri(), text, 1), 1)


def test_a_child_that_never_answers_is_stopped_and_its_slice_checked_here(
    big, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import time

    from citelens.session import first_check

    def hanging(*args: object) -> tuple[int, int]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # as a child stuck on a lock it inherited
            time.sleep(60)
            os._exit(0)
        os.close(write_fd)
        return pid, read_fd

    monkeypatch.setattr(first_check, "_fork", hanging)
    monkeypatch.setattr(first_check, "CHILD_GRACE_S", 0.5)
    ws, text = big
    one = ws.open((tmp_path / "one.jsonl").as_uri(), text, 1)
    many = ws.open((tmp_path / "many.jsonl").as_uri(), text, 1)
    started = time.monotonic()
    assert check_in_processes(many, 2)
    assert time.monotonic() - started < 50  # not the child's 60 s
    assert _rows(many) == _rows(one)


@pytest.mark.parametrize("n", [0, 1, 199, 200, 201, 450])
def test_a_childs_outcomes_pickled_in_pieces_come_back_whole_and_in_order(n: int) -> None:
    from citelens.session.first_check import PICKLE_PIECE, from_pieces, in_pieces

    values = [([("code", i, "message", "/answer/0")], [(i, None, "x" * (i % 7))]) for i in range(n)]
    pieces = in_pieces(values)
    assert len(pieces) == -(-n // PICKLE_PIECE)  # no piece holds more than PICKLE_PIECE
    assert from_pieces(pieces) == values
    assert from_pieces(in_pieces(values, size=1)) == values
