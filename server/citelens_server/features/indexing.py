"""`citelens.indexCorpus(corpora, db?)`: build the embedded index with the engine's
indexer in a worker thread, with work-done progress (documents/s, percentage, ETA) and
cancellation.

The event loop stays free meanwhile (hovers, diagnostics of other files). A cancelled
build stops between two committed batches: the index is left resumable and is never
taken for complete (`citelens.corpus.index_build`); the next run continues it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citelens_server.runtime.progress import Progress
from citelens_server.runtime.server import CiteLensServer, uri_path

if TYPE_CHECKING:
    from citelens.session.indexing import BuildProgress

log = logging.getLogger("citelens_server")

INDEX_CORPUS = "citelens.indexCorpus"


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def progress_report(progress: BuildProgress) -> types.WorkDoneProgressReport:
    """One `BuildProgress` as the client shows it."""
    eta = progress.eta
    message = f"{progress.docs:,} documents · {progress.rate:,.0f} docs/s"
    if eta is not None:
        message += f" · ETA {_clock(eta)}"
    percentage = None
    if progress.bytes_total > 0:
        percentage = min(100, int(100 * progress.bytes_done / progress.bytes_total))
    return types.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True)


def as_path(value: str) -> Path:
    """A corpus or index location: a `file:` URI or a path (`~` expanded)."""
    path = uri_path(value) if value.startswith("file:") else None
    return path if path is not None else Path(value).expanduser()


def corpus_arguments(args: tuple[Any, ...]) -> tuple[list[Path], Path | None]:
    """(corpus paths, index path or None) from the command's arguments: a list of corpus
    paths or URIs (or one string), then optionally the index path."""
    if not args:
        raise ValueError("name the corpus files or folders to index")
    first, rest = args[0], args[1:]
    corpora = [first] if isinstance(first, str) else list(first or [])
    if not corpora or not all(isinstance(c, str) and c for c in corpora):
        raise ValueError("the corpora must be a list of file paths or URIs")
    db = rest[0] if rest and isinstance(rest[0], str) and rest[0] else None
    return [as_path(c) for c in corpora], (as_path(db) if db else None)


async def index_corpus(ls: CiteLensServer, *args: Any) -> dict[str, Any]:
    from citelens.session.indexing import (
        CorpusFileError,
        IndexBusy,
        IndexCancelled,
        build_index,
        default_index_path,
    )

    try:
        corpora, db = corpus_arguments(args)
    except ValueError as exc:
        return {"ok": False, "reason": str(exc)}
    db = db or default_index_path(corpora)
    loop = asyncio.get_running_loop()
    progress = Progress(ls, "index")
    await progress.begin(f"Indexing {', '.join(p.name for p in corpora)}")

    def report(value: BuildProgress) -> None:  # on the event loop
        if progress.cancelled():
            progress.stop.set()
            return
        progress.report(progress_report(value))

    def on_progress(value: BuildProgress) -> None:  # in the worker thread
        loop.call_soon_threadsafe(report, value)

    answer: dict[str, Any] = {"ok": False, "db": str(db), "cancelled": False}
    try:
        built = await asyncio.to_thread(
            build_index, corpora, db, on_progress=on_progress, cancelled=progress.cancelled
        )
        answer.update(
            ok=True,
            documents=built.total_docs,
            added=built.docs_added,
            seconds=round(built.seconds, 2),
            files=[{"path": f.path, "action": f.action, "stopped": f.stopped} for f in built.files],
            problems=[f"{p}:{line}: {message}" for p, line, message in built.problems],
        )
        log.info("indexed %s: %d documents in %s", ", ".join(map(str, corpora)), built.total_docs, db)
    except IndexCancelled:
        answer.update(cancelled=True, reason="cancelled; the next run resumes the index")
    except asyncio.CancelledError:  # the client cancelled the request itself
        progress.stop.set()
        raise
    except (CorpusFileError, IndexBusy, OSError) as exc:
        answer["reason"] = str(exc)
    except Exception as exc:  # sqlite3 errors and the like: said, logged, never a crash
        log.exception("indexing %s", corpora)
        answer["reason"] = f"cannot index ({exc})"
    finally:
        progress.end(
            "cancelled"
            if answer["cancelled"]
            else answer.get("reason") or (f"{answer.get('documents', 0):,} documents indexed")
        )
    if answer["ok"] and ls.session is not None:
        ls.session.drop_sources()  # the sources reopen the index as it is now
        ls.recheck_all()
    return answer


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (INDEX_CORPUS, index_corpus),
]
