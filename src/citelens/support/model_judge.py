"""Model judges (`llm`, `nli`) over many pairs: which pairs go to the model, at most
`concurrency` calls at a time, each verdict cached as it arrives (so a stopped run resumes
where it stopped), progress, cancellation, and a dry run that only counts the calls.

A model verdict keeps the lexical judge's evidence and explanation (the passage, the
words not found): the model says whether the document supports the sentence, the word
matcher shows where to look."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Protocol

from citelens.support.verdict import HIGH, SupportVerdict, UncheckedReason, Verdict

JUDGES = ("lexical", "llm", "nli", "cascade")
#: the score a model verdict carries (a model gives a label, not a coverage)
MODEL_SCORES = {Verdict.SUPPORTED: 1.0, Verdict.PARTIAL: 0.5, Verdict.UNSUPPORTED: 0.0}
#: how often (seconds) a run waiting for its calls looks at the cancel flag
CANCEL_CHECK_S = 0.1


class ModelBackend(Protocol):
    """One model: `judge` a (sentence, document) pair; `cost` estimates a call's tokens."""

    id: str  # "llm:<model>" or "nli:<model>": what a verdict names as its judge
    fingerprint: str  # what the cache key holds of the model and its prompt
    max_citations: int | None  # the first this many citations of a sentence are judged
    cancel: threading.Event

    def judge(self, sentence: str, document: str) -> tuple[Verdict | None, str | None]:
        """(verdict or None for "no label", the model's answer)."""
        ...

    def cost(self, sentence: str, document: str) -> int:
        """About how many tokens one call sends."""
        ...


@dataclass(frozen=True)
class Item:
    """One pair for the model: its cache key, texts and the lexical verdict it refines."""

    key: str
    sentence: str
    document: str
    lexical: SupportVerdict


@dataclass
class Outcome:
    """What one run of the model judge did."""

    planned: int = 0  # calls needed (not cached)
    tokens: int = 0  # their estimated prompt tokens
    done: int = 0
    failed: int = 0  # calls that failed after the retries (left to the lexical verdict)
    cancelled: bool = False
    verdicts: dict[str, SupportVerdict] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.failed and not self.cancelled


def model_verdict(
    backend: ModelBackend, lexical: SupportVerdict, verdict: Verdict | None, answer: str | None
) -> SupportVerdict:
    """A model's verdict, with the lexical judge's evidence and explanation kept."""
    if verdict is None:
        return replace(
            lexical,
            verdict=Verdict.UNCHECKED,
            score=0.0,
            reason=UncheckedReason.NO_LABEL,
            judge=backend.id,
            tier="",
            answer=answer,
        )
    return replace(
        lexical,
        verdict=verdict,
        score=MODEL_SCORES[verdict],
        reason=None,
        judge=backend.id,
        tier=HIGH,
        answer=answer,
        other_amount=False,
    )


def wanted(lexical: SupportVerdict, position: int, backend: ModelBackend, cascade: bool) -> bool:
    """Does this citation (the `position`-th of its sentence) go to the model? Not when
    the lexical judge declined (no document, another language), not past the model's
    citation limit, and with `cascade` only in the uncertain band (the low tier)."""
    if lexical.verdict is Verdict.UNCHECKED:
        return False
    if backend.max_citations is not None and position >= backend.max_citations:
        return False
    return not (cascade and lexical.tier == HIGH)


def run_model(
    backend: ModelBackend,
    items: Sequence[Item],
    *,
    concurrency: int = 4,
    dry_run: bool = False,
    keep: Callable[[str, SupportVerdict], None] | None = None,
    flush: Callable[[], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    flush_every: int = 16,
) -> Outcome:
    """Judge `items` on the model, `concurrency` calls at a time; each verdict goes to
    `keep` as it arrives and `flush` runs every `flush_every` verdicts. JudgeError (the
    endpoint cannot be used) cancels the rest and propagates. Once `backend.cancel` is
    set no call starts and the run returns at once: a call in flight then (a slow
    endpoint) is abandoned, its answer not waited for nor kept."""
    from citelens.support.llm_client import CallFailed, Cancelled

    out = Outcome(planned=len(items), tokens=sum(backend.cost(i.sentence, i.document) for i in items))
    if dry_run or not items:
        return out
    since_flush = 0

    def one(item: Item) -> SupportVerdict:
        verdict, answer = backend.judge(item.sentence, item.document)
        return model_verdict(backend, item.lexical, verdict, answer)

    pool = ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="citelens-judge")
    pending: dict[Future[SupportVerdict], Item] = {}
    queue = list(reversed(items))
    abandoned = False  # cancelled with calls in flight: they are not waited for
    try:
        while queue or pending:
            while queue and len(pending) < max(1, concurrency) and not backend.cancel.is_set():
                item = queue.pop()
                pending[pool.submit(one, item)] = item
            if not pending:
                break
            finished, _ = wait(pending, timeout=CANCEL_CHECK_S, return_when=FIRST_COMPLETED)
            for future in finished:
                item = pending.pop(future)
                try:
                    verdict = future.result()
                except Cancelled:
                    out.cancelled = True
                    continue
                except CallFailed:
                    out.failed += 1
                    continue
                out.verdicts[item.key] = verdict
                out.done += 1
                if keep is not None:
                    keep(item.key, verdict)
                since_flush += 1
                if flush is not None and since_flush >= flush_every:
                    flush()
                    since_flush = 0
                if progress is not None:
                    progress(out.done + out.failed, out.planned)
            if backend.cancel.is_set():
                out.cancelled = out.cancelled or bool(queue) or bool(pending)
                queue.clear()
                abandoned = bool(pending)
                break
    except BaseException:
        backend.cancel.set()
        raise
    finally:
        pool.shutdown(wait=not abandoned, cancel_futures=True)
        if flush is not None:
            flush()
    return out
