"""Where judgements run: in this process, a process pool (the default: all cores), or a
Ray cluster (``ray`` / ``ray:ADDRESS``, with the optional ``citelens[ray]`` extra).

Work is sent in batches of (sentence, document text) pairs; each batch carries the
document texts it needs, so a Ray worker fetches nothing from the driver's disk.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # pydantic loads only when judging: `check` without --support stays light
    from citelens.support.settings import SupportSettings

Pair = tuple[str, str | None]  # (sentence, document text or None)


class ExecutorError(ValueError):
    """An --executor value that cannot be used; the message says why."""


def judge_batch(pairs: Sequence[Pair], settings_data: dict[str, Any]) -> list[dict[str, Any]]:
    """Judge a batch; plain data in and out (cheap to send between processes)."""
    from citelens.support.judge import judge_support
    from citelens.support.settings import SupportSettings

    settings = SupportSettings.model_validate(settings_data)
    return [judge_support(sentence, doc, settings).to_dict() for sentence, doc in pairs]


def parse_executor(spec: str) -> tuple[str, str | None]:
    """``process`` | ``serial`` | ``ray`` | ``ray:ADDRESS`` -> (kind, address)."""
    kind, _, address = spec.partition(":")
    if kind not in ("process", "serial", "ray") or (address and kind != "ray"):
        raise ExecutorError(f"unknown executor {spec!r}: use process, serial, ray or ray:ADDRESS")
    return kind, address or None


def _batches(pairs: Sequence[Pair], size: int) -> list[Sequence[Pair]]:
    return [pairs[i : i + size] for i in range(0, len(pairs), size)]


Progress = Callable[[int, int], None]  # (pairs done, pairs in all)


class TerminalProgress:
    """``support: judged 1,200/9,000 pairs (410/s, ETA 19 s)`` on one rewritten stderr line."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        elapsed = max(time.monotonic() - self.start, 1e-6)
        rate = done / elapsed
        eta = (total - done) / rate if rate else 0.0
        end = "\n" if done >= total else ""
        self.stream.write(
            f"\rsupport: judged {done:,}/{total:,} pairs ({rate:,.0f}/s, ETA {eta:,.0f} s)  {end}"
        )
        self.stream.flush()


def terminal_progress() -> Progress | None:
    """A progress line when stderr is a terminal, else nothing."""
    return TerminalProgress() if sys.stderr.isatty() else None


def run_judgements(
    pairs: Sequence[Pair],
    settings: SupportSettings,
    executor: str = "process",
    batch_size: int = 256,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Verdict dicts for ``pairs``, in order, computed where ``executor`` says."""
    kind, address = parse_executor(executor)
    data = settings.model_dump()
    if not pairs:
        return []
    workers = os.cpu_count() or 1
    serial = kind == "serial" or (kind == "process" and (workers < 2 or len(pairs) < batch_size // 2))
    size = max(1, min(batch_size, -(-len(pairs) // (workers * 4))))
    batches = _batches(pairs, size)
    out: list[dict[str, Any]] = []

    def collect(parts: Iterable[list[dict[str, Any]]]) -> list[dict[str, Any]]:
        for part in parts:
            out.extend(part)
            if progress is not None:
                progress(len(out), len(pairs))
        return out

    if serial:
        return collect(judge_batch(batch, data) for batch in batches)
    if kind == "process":
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            return collect(pool.map(judge_batch, batches, [data] * len(batches)))
    return collect(_run_on_ray(batches, data, address))


def _run_on_ray(
    batches: list[Sequence[Pair]], data: dict[str, Any], address: str | None
) -> Iterator[list[dict[str, Any]]]:
    try:
        import ray
    except ImportError:
        raise ExecutorError("--executor ray needs Ray: pip install 'citelens[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(judge_batch)
    refs = [remote.remote(list(batch), data) for batch in batches]
    for ref in refs:
        yield ray.get(ref)
