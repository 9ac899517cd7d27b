"""A big document's first check on several processes gives exactly the findings of one
process (and of `citelens check`), and its later edits re-check as before."""

from __future__ import annotations

import os
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

    monkeypatch.setattr(first_check, "fork_sending", hanging)
    monkeypatch.setattr(first_check, "CHILD_GRACE_S", 0.5)
    ws, text = big
    one = ws.open((tmp_path / "one.jsonl").as_uri(), text, 1)
    many = ws.open((tmp_path / "many.jsonl").as_uri(), text, 1)
    started = time.monotonic()
    assert check_in_processes(many, 2)
    assert time.monotonic() - started < 50  # not the child's 60 s
    assert _rows(many) == _rows(one)


def test_a_very_big_run_is_cut_into_slices_whose_numbers_fit_a_pipe_page() -> None:
    from citelens.session.first_check import MAX_SLICES, _Turns

    assert MAX_SLICES * _Turns.TOKEN <= 4096
    with pytest.raises(ValueError):
        _Turns(MAX_SLICES + 1)


@pytest.mark.parametrize("count", [0, 1, 7, 400, 1000])
def test_every_slice_is_taken_once_by_the_processes_taking_turns(count: int) -> None:
    import os

    from citelens.session.first_check import _Turns

    with _Turns(count) as turns:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # a child taking turns too, one slice at a time
            os.close(read_fd)
            with os.fdopen(write_fd, "w") as out:
                out.write(",".join(str(n) for n in turns))
            os._exit(0)
        os.close(write_fd)
        mine = list(turns)
        with os.fdopen(read_fd) as got:
            theirs = [int(n) for n in got.read().split(",") if n]
        os.waitpid(pid, 0)
    assert sorted(mine + theirs) == list(range(count))
    assert mine == sorted(mine) and theirs == sorted(theirs)  # each in file order


def test_a_slower_process_takes_fewer_slices(big, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child is slowed down: this process takes most slices, and every report's outcome
    is still the one process's."""
    import time

    from citelens.session import first_check

    real = first_check._outcomes
    parent, log = os.getpid(), tmp_path / "slices.log"

    def outcomes(*args):
        if os.getpid() != parent:
            time.sleep(0.2)
        with log.open("a") as out:  # one line per slice, by the process that checked it
            out.write(f"{os.getpid()}\n")
        return real(*args)

    monkeypatch.setattr(first_check, "_outcomes", outcomes)
    ws, text = big
    one = ws.open((tmp_path / "one.jsonl").as_uri(), text, 1)
    many = ws.open((tmp_path / "many.jsonl").as_uri(), text, 1)
    assert check_in_processes(many, 2)
    by = log.read_text().split()
    slices = -(-len(many.items) // first_check.SLICE)
    assert len(by) == slices  # each slice checked once
    assert 0 < sum(pid != str(parent) for pid in by) < slices // 3
    assert _rows(many) == _rows(one)
