"""The collector around big documents (runtime/collector.py): paused while big work runs
(until the last of overlapping jobs ends), what that work leaves frozen, unfrozen when a
big document is closed, and never switched on if it was off."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from citelens_server.runtime.collector import Collector


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


def test_paused_until_the_last_job_ends_then_frozen_and_unfrozen_on_close() -> None:
    gc.enable()
    gc.unfreeze()
    collector = Collector()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused(freeze=True):
            kept = [[i] for i in range(1000)]  # long-lived objects the work made
        assert not gc.isenabled(), "one job ended while another still runs"
        assert gc.get_freeze_count() >= len(kept)
    assert gc.isenabled()
    collector.closed_big()
    assert gc.get_freeze_count() == 0


def test_a_collector_switched_off_stays_off() -> None:
    gc.disable()
    with Collector().paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_an_error_in_the_work_still_resumes_collection() -> None:
    gc.enable()
    collector = Collector()
    with pytest.raises(ValueError), collector.paused():
        raise ValueError("the check failed")
    assert gc.isenabled()
