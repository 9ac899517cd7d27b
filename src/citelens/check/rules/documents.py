"""Rules on the cited documents themselves (needs configured document sources):
unknown_document on a cited or referenced id no source has, and documents_unchecked when
a source could not answer (then nothing is guessed for the ids it could not answer for)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from citelens.check.finding import Finding, Target
from citelens.check.rule import Rule
from citelens.source.json_nodes import pointer_join

if TYPE_CHECKING:
    from citelens.check.rules.coverage import ReportFacts
    from citelens.check.view import ReportView


class DocumentAnswer(Protocol):
    """What a lookup answers (`citelens.corpus.Lookup` is one; check sits below corpus)."""

    @property
    def documents(self) -> Mapping[str, object | None]: ...

    @property
    def unanswered(self) -> Mapping[str, str]: ...


class DocumentSources(Protocol):
    """Where cited documents are looked up (`citelens.corpus.DocumentSource` is one)."""

    def get_many(self, ids: Iterable[str]) -> DocumentAnswer: ...

    def describe(self) -> str: ...


Add = Callable[[int | None, Finding], None]
#: a doc id with where it stands: (id, pointer, target value)
DocRef = tuple[str, str, str]
_TARGETS = {t.value: t for t in Target}


def document_refs(view: ReportView) -> tuple[tuple[DocRef, ...], frozenset[str]]:
    """Every cited and referenced doc id of a report with its pointer, and the ids whose
    documents the report carries itself (`documents`, the ranking's embedded `doc`s)."""
    refs: list[DocRef] = []
    for i in range(len(view.sentences or [])):
        if view.sentence_shape(i) == "rag24":
            continue  # its citations are positions in `references`, where the ids are checked
        for doc_id, tokens, target in view.cited_ids(i):
            refs.append((doc_id, pointer_join(*tokens), target.value))
    references = view.references()
    if references:
        refs.extend(
            (r, f"/references/{j}", Target.VALUE.value)
            for j, r in enumerate(references)
            if isinstance(r, str)
        )
    return tuple(refs), _embedded_ids(view.value)


def _embedded_ids(value: dict[str, Any]) -> frozenset[str]:
    ids: set[str] = set()
    documents = value.get("documents")
    if isinstance(documents, dict):
        ids.update(k for k, v in documents.items() if isinstance(v, dict))
    ranking = value.get("ranking")
    if isinstance(ranking, list):
        for entry in ranking:
            if not isinstance(entry, dict):
                continue
            docs = entry["documents"] if isinstance(entry.get("documents"), list) else [entry]
            for ranked in docs:
                if isinstance(ranked, dict) and isinstance(ranked.get("doc"), dict):
                    doc_id = ranked.get("doc_id") or ranked.get("docid") or ranked["doc"].get("id")
                    if isinstance(doc_id, str):
                        ids.add(doc_id)
    return frozenset(ids)


def check_documents(facts: list[ReportFacts], sources: DocumentSources, add: Add) -> None:
    """One lookup for the whole file; findings on each occurrence of an id nobody has."""
    wanted: dict[str, None] = {}
    for f in facts:
        for doc_id, _, _ in f.doc_refs:
            if doc_id not in f.embedded:
                wanted[doc_id] = None
    if not wanted:
        return
    answer = sources.get_many(list(wanted))
    for f in facts:
        reported: set[tuple[str, str]] = set()
        for doc_id, pointer, target in f.doc_refs:
            if doc_id in f.embedded or answer.documents.get(doc_id, False) is not None:
                continue
            if (doc_id, pointer) in reported:
                continue
            reported.add((doc_id, pointer))
            add(
                f.index,
                Finding(
                    "unknown_document",
                    "error",
                    f"no document {doc_id!r} in {sources.describe()}; the track cannot judge a "
                    "citation of a document that does not exist (a typo, another collection, a shifted id?)",
                    pointer,
                    _TARGETS[target],
                    topic_id=f.topic_id,
                    data={"doc_id": doc_id},
                ),
            )
    if answer.unanswered:
        by_reason: dict[str, list[str]] = {}
        for doc_id, why in answer.unanswered.items():
            by_reason.setdefault(why, []).append(doc_id)
        for why, ids in by_reason.items():
            shown = ", ".join(ids[:5]) + (f", ... (+{len(ids) - 5} more)" if len(ids) > 5 else "")
            add(
                None,
                Finding(
                    "documents_unchecked",
                    "info",
                    f"{len(ids)} cited doc id(s) could not be checked: {why} ({shown})",
                    data={"reason": why, "doc_ids": ids},
                ),
            )


RULES = (
    Rule("unknown_document", check_documents, scope="file"),
    Rule("documents_unchecked", check_documents, default_severity="info", scope="file"),
)
