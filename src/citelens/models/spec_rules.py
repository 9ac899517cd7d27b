"""Model-level track-spec rules: the stand-in until `citelens.check` checks reports.

Same categories, order and messages as the reference library's model-level verifier,
with one intended difference: doc ids must match the spec's pattern as a whole.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from citelens.models.sentences import tag_of_sentence

if TYPE_CHECKING:
    from citelens.models.report import Report
    from citelens.specs import TrackSpec

Add = Callable[[str, str], None]


def length_count(texts: list[str], unit: str) -> int:
    """Length of the space-joined texts: whitespace-split words, or NFKC characters."""
    joined = " ".join(texts)
    return len(joined.split()) if unit == "words" else len(unicodedata.normalize("NFKC", joined))


def _cited_ids(sentence: Any, refs: list[str]) -> list[str]:
    tag, cits = tag_of_sentence(sentence), sentence.citations
    if tag == "rag24":
        return [refs[i] for i in cits or [] if isinstance(i, int) and 0 <= i < len(refs)]
    return list(cits or [])


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _metadata(report: "Report", spec: "TrackSpec", add: Add) -> None:
    md = report.metadata
    for key in spec.mandatory_metadata:
        value = getattr(md, key, None)
        if _blank(value):
            add("metadata", f"{spec.track}: metadata.{key} is a required field but is missing or empty "
                            f"(got {value!r})")
    for key in spec.recommended_metadata:
        if _blank(getattr(md, key, None)):
            add("metadata_recommended", f"{spec.track}: metadata.{key} is recommended by the track but is "
                                        f"missing or empty")
    run_id = md.run_id or ""
    if spec.run_id_max_len is not None and len(run_id) > spec.run_id_max_len:
        add("run_id_length", f"{spec.track}: run_id is {len(run_id)} characters, over the "
                             f"{spec.run_id_max_len}-character limit")


def _sentences(report: "Report", spec: "TrackSpec", sentences: list[Any], add: Add) -> None:
    refs = report.references or []
    key, limit = spec.sentences_key, spec.max_citations_per_sentence
    where = f" for collection {spec.collection_ids[0]}" if spec.collection_ids else ""
    for i, s in enumerate(sentences):
        tag = tag_of_sentence(s)
        if tag not in spec.sentence_type:
            add("citation_format", f"{spec.track}: {key}[{i}] uses citation format "
                                   f"'{tag or type(s).__name__}', which {spec.track} does not accept "
                                   f"(accepted citation formats: {list(spec.sentence_type)})")
            continue
        if _blank(s.text):
            add("blank_sentence", f"{spec.track}: {key}[{i}].text must be a non-empty string "
                                  f"(this sentence has no text)")
        count = len(s.citations) if s.citations else 0
        if limit is not None and count > limit:
            add("citation_count", f"{spec.track}: {key}[{i}] has {count} citations (max {limit}) -- too "
                                  f"many for one sentence")
        if tag == "rag24":
            for c in s.citations or []:
                if not 0 <= c < len(refs):
                    add("reference_index", f"{spec.track}: {key}[{i}] cites reference index {c!r}, which is "
                                           f"not a valid reference index (the references array has "
                                           f"{len(refs)} entries)")
        if spec.docid_pattern:
            for doc_id in _cited_ids(s, refs):
                if not spec.docid_ok(doc_id):
                    add("docid_pattern", f"{spec.track}: cited doc-id {doc_id!r} is not a valid document "
                                         f"id{where} (must match docid pattern {spec.docid_pattern})")


def _references(report: "Report", spec: "TrackSpec", sentences: list[Any], add: Add) -> None:
    kind, refs = spec.references_kind, report.references
    if kind == "ignore":
        return
    cited = {d for s in sentences for d in _cited_ids(s, refs or [])}
    if kind == "none":
        if refs:
            add("references_present", f"{spec.track}: this track uses no references array, but the report "
                                      f"provided one")
        return
    if spec.references_optional and not refs:
        return
    if refs is None:
        add("references_missing", f"{spec.track}: this track requires a references array, but the report "
                                  f"has none")
        return
    if len(set(refs)) != len(refs):
        add("references_duplicate", f"{spec.track}: the references array lists the same document id more "
                                    f"than once")
    if spec.docid_pattern:
        where = f" for collection {spec.collection_ids[0]}" if spec.collection_ids else ""
        for doc_id in refs:
            if not spec.docid_ok(doc_id):
                add("docid_pattern", f"{spec.track}: reference doc-id {doc_id!r} is not a valid document "
                                     f"id{where} (must match docid pattern {spec.docid_pattern})")
    undeclared, uncited = sorted(cited - set(refs)), sorted(set(refs) - cited)
    if kind == "cited_only":
        if undeclared:
            add("references_undeclared", f"{spec.track}: {len(undeclared)} document(s) cited in the answer "
                                         f"are not listed in references (e.g. {undeclared[0]!r}); references "
                                         f"must list exactly the cited documents")
        if uncited:
            add("references_uncited", f"{spec.track}: {len(uncited)} document(s) in references are never "
                                      f"cited in the answer (e.g. {uncited[0]!r}); references must list "
                                      f"exactly the cited documents")
        return
    if undeclared:
        add("references_undeclared", f"{spec.track}: some documents cited in the answer are not listed in "
                                     f"references")
    if spec.references_max is not None and len(refs) > spec.references_max:
        add("references_max", f"{spec.track}: the references array has {len(refs)} entries "
                              f"(max {spec.references_max})")
    if uncited:
        add("references_uncited", f"{spec.track}: {len(uncited)} document(s) in references are never cited "
                                  f"in the answer (e.g. {uncited[0]!r}); permitted, but citing or dropping "
                                  f"them is preferred")


def _length(spec: "TrackSpec", sentences: list[Any], request: Any, add: Add) -> None:
    limit = spec.length_limit
    if limit is None and spec.length_limit_request_field is not None:
        if request is None:
            return  # the limit lives on the request, which was not given
        limit = getattr(request, spec.length_limit_request_field, None)
    count = length_count([s.text for s in sentences if isinstance(s.text, str)], spec.length_unit)
    if limit is not None and count > limit:
        add("length", f"{spec.track}: the answer text is too long -- {count} {spec.length_unit} (limit {limit})")


def spec_findings(report: "Report", spec: "TrackSpec | None", *, request: Any = None,
                  use_answer: bool = False) -> tuple[list[str], list[str]]:
    """(errors, warnings); a category in the spec's smells is a warning."""
    errors: list[str] = []
    warnings: list[str] = []
    smells = spec.smells if spec is not None else ()

    def add(code: str, message: str) -> None:
        (warnings if code in smells else errors).append(message)

    prefix = f"{spec.track}: " if spec is not None else ""
    key = spec.sentences_key if spec is not None else "response"
    sentences = report.answer if use_answer else report.responses
    if sentences is None:
        add("empty_answer", f"{prefix}missing {key}")
    elif not sentences:
        add("empty_answer", f"{prefix}empty {key} given (no sentences)")
    elif all(_blank(s.text) for s in sentences):
        add("empty_answer", f"{prefix}empty {key} given (all sentences blank)")
    elif spec is None:
        refs = report.references or []
        for i, s in enumerate(sentences):
            if _blank(s.text):
                add("blank_sentence", f"sentence[{i}].text must be a non-empty string")
            if tag_of_sentence(s) == "rag24":
                for c in s.citations or []:
                    if not 0 <= c < len(refs):
                        add("reference_index", f"sentence[{i}] citation index {c!r} is out of range")
    else:
        _metadata(report, spec, add)
        _sentences(report, spec, sentences, add)
        _references(report, spec, sentences, add)
        _length(spec, sentences, request, add)
    return errors, warnings
