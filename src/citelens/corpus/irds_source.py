"""ir_datasets (`irds:DATASET_ID`): the document store of a dataset whose files are already on disk.

An optional extra (`pip install 'citelens[irds]'`). CiteLens never lets ir_datasets
download: a dataset whose documents are not where the store expects them is unanswered,
with that path. A store can hand back a different document for a malformed id (a segment
store seeks by the offset written in the id), so each returned id is compared with the
one asked for.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citelens.corpus.corpus_document import CorpusDocument, Lookup


def irds_document(doc: Any, origin: str) -> CorpusDocument:
    """An ir_datasets document (a named tuple) in our shape; all its fields kept."""
    data = doc._asdict() if hasattr(doc, "_asdict") else dict(vars(doc))
    text = data.get("text")
    if not isinstance(text, str):
        text = next(
            (v for k, v in data.items() if k in ("body", "segment", "contents") and isinstance(v, str)), ""
        )
    title = data.get("title") if isinstance(data.get("title"), str) else None
    url = data.get("url") if isinstance(data.get("url"), str) else None
    return CorpusDocument(str(data.get("doc_id")), text, title or None, url, origin, fields=data)


class IrdsSource:
    """Documents of one ir_datasets dataset, looked up in its docs store."""

    def __init__(self, dataset_id: str) -> None:
        self.dataset_id = dataset_id
        self._store: Any = None
        self._problem: str | None = None

    def describe(self) -> str:
        return f"irds:{self.dataset_id}"

    def close(self) -> None:
        self._store = None

    def _open(self) -> Any:
        if self._store is not None or self._problem is not None:
            return self._store
        try:
            import ir_datasets
        except ImportError:
            self._problem = "ir_datasets is not installed (pip install 'citelens[irds]')"
            return None
        try:
            dataset = ir_datasets.load(self.dataset_id)
        except KeyError:
            self._problem = f"ir_datasets has no dataset {self.dataset_id!r}"
            return None
        if not dataset.has_docs():
            self._problem = f"the ir_datasets dataset {self.dataset_id!r} has no documents"
            return None
        try:
            path = Path(dataset.docs_path(force=False))
        except Exception:
            home = os.environ.get("IR_DATASETS_HOME", "~/.ir_datasets")
            self._problem = f"cannot tell where ir_datasets keeps the documents (under {home}); CiteLens does not download"
            return None
        if not path.exists():
            self._problem = (
                f"its documents are not on this machine (expected at {path}); CiteLens does not download them"
            )
            return None
        self._store = dataset.docs_store()
        return self._store

    def get_many(self, ids: Iterable[str]) -> Lookup:
        wanted = list(dict.fromkeys(ids))
        store = self._open()
        if store is None:
            return Lookup(unanswered=dict.fromkeys(wanted, self._problem or "not available"))
        try:
            found = store.get_many(wanted)
        except Exception as exc:  # a damaged or half-written store
            return Lookup(
                unanswered=dict.fromkeys(
                    wanted, f"the ir_datasets store failed ({type(exc).__name__}: {exc})"
                )
            )
        out = Lookup()
        for doc_id in wanted:
            doc = found.get(doc_id)
            if doc is None or str(getattr(doc, "doc_id", None)) != doc_id:
                out.documents[doc_id] = None  # absent, or the store answered with another document
            else:
                out.documents[doc_id] = irds_document(doc, self.describe())
        return out
