"""Rules on the sentence list: empty_answer, blank_sentence, and the citation rules
citation_format, citation_count, citation_duplicate, reference_index, citation_score,
docid_pattern (for cited ids)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from citelens.check.finding import RELATED, Related, Target
from citelens.check.rule import EMPTY_ANSWER, SCORES, SENTENCES, SHAPES, ReportCheck, Rule
from citelens.check.rules.sentences_fixes import (
    fix_blank_sentence,
    fix_citation_count,
    fix_citation_duplicate,
    fix_citation_format,
    fix_citation_score,
    fix_reference_index,
)
from citelens.check.view import FAMILY, SHAPE_NAMES, JsonArray, ReportView, blank, is_number
from citelens.source.json_types import JSON_TYPE_PLURALS, json_shown, json_type

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec


def check_empty_answer(view: ReportView) -> bool:
    """True when the report has sentences to check (empty_answer stops the rest)."""
    key = view.sentences_ptr[1:]
    if view.sentences is None:
        view.add("empty_answer", f"missing {key}: the report has no sentences", key, target=Target.MISSING)
        return False
    if not view.sentences:
        view.add("empty_answer", f"empty {key} given (no sentences); write at least one sentence", key)
        return False
    if all(blank(s.get("text")) if isinstance(s, dict) else True for s in view.sentences):
        view.add("empty_answer", f"empty {key} given (every sentence's text is blank)", key)
        return False
    return True


def check_shapes(view: ReportView) -> None:
    """Citation shapes that no single report type can hold (mixed, or malformed)."""
    if view.shape is not None:
        return
    key = view.sentences_ptr[1:]
    families = [FAMILY.get(k) for k in view.kinds]
    main = next((f for f in families if f is not None), None)
    first_at = families.index(main) if main else None
    for i, kind in enumerate(view.kinds):
        s = (view.sentences or [])[i]  # kinds has one entry per sentence
        cits = s.get("citations") if isinstance(s, dict) else None
        if kind == "invalid":
            view.add(
                "citation_format",
                f"{key}[{i}].citations must be a list of doc ids, a list of "
                "integer indices into references, or an object of doc id -> score; "
                f"this one is {_describe(cits)}",
                *view.sptr(i, "citations"),
            )
        elif kind == "empty" and main == "ragtime":
            view.add(
                "citation_format",
                f"{key}[{i}].citations is [] but this report cites with "
                "{doc id: score} objects; write {} (or null) for no citations",
                *view.sptr(i, "citations"),
            )
        elif (family := families[i]) is not None and family != main and main is not None:
            view.add(
                "citation_format",
                f"{key}[{i}] cites with {SHAPE_NAMES[family]} while "
                f"{key}[{first_at}] uses {SHAPE_NAMES[main]}; use one citation shape per report",
                *view.sptr(i, "citations"),
            )


def _describe(value: object) -> str:
    if isinstance(value, list):
        names = sorted({JSON_TYPE_PLURALS[json_type(v)] for v in value})
        return "an array of " + " and ".join(names)
    return json_type(value)


def check_sentences(view: ReportView) -> None:
    """Each sentence: its text, and its citations against the track. Without a spec only
    the structural part runs (blank text, index citations into `references`), as the
    reference library's spec-less mode does."""
    spec = view.spec
    key = view.sentences_ptr[1:]
    refs = view.references() or []
    maxc = spec.max_citations_per_sentence if spec is not None else None
    report_shape = view.shape
    check_ids = spec is not None and spec.docid_regex is not None
    for i, s in enumerate(view.sentences or []):
        if type(s) is not dict:
            continue
        shape = report_shape if report_shape is not None else view.sentence_shape(i)
        if spec is not None:
            accepted = spec.sentence_type
            if shape is not None and shape not in accepted:
                view.add(
                    "citation_format",
                    f"{key}[{i}] cites with {SHAPE_NAMES[shape]} ({shape}), which "
                    f"this track does not accept; use "
                    + " or ".join(f"{SHAPE_NAMES[t]} ({t})" for t in accepted),
                    *view.sptr(i, "citations"),
                )
                continue
            if spec.require_citations_key and "citations" not in s:
                view.add(
                    "citation_format",
                    f"{key}[{i}] has no 'citations' key; this track requires one "
                    "on every sentence (write [] when it cites nothing)",
                    *view.sptr(i, "citations"),
                    target=Target.MISSING,
                )
        text = s.get("text")
        if type(text) is not str or not text.strip():
            view.add(
                "blank_sentence",
                f"{key}[{i}].text is blank; every sentence needs text (drop the sentence or write it)",
                *view.sptr(i, "text"),
                target=Target.VALUE if "text" in s else Target.MISSING,
            )
        cits = s.get("citations")
        if maxc is not None:
            n = len(cits) if type(cits) is list or type(cits) is dict else 0
            if n > maxc:
                view.add(
                    "citation_count",
                    f"{key}[{i}] has {n} citations; the track allows at most {maxc} per sentence",
                    *view.sptr(i, "citations"),
                    limit=maxc,
                )
        if shape == "rag24" and isinstance(cits, list):
            for j, c in enumerate(cits):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < len(refs):
                    what = (
                        "not an integer" if isinstance(c, bool) or not isinstance(c, int) else "out of range"
                    )
                    view.add(
                        "reference_index",
                        f"{key}[{i}] cites reference index {json_shown(c)}, {what}: "
                        f"the references list has {len(refs)} entries, so valid indices are "
                        + (f"0..{len(refs) - 1}" if refs else "none"),
                        *view.sptr(i, "citations", j),
                        **_points_into_references(view),
                    )
        if spec is None:
            continue
        if check_ids and cits and not _all_ids_ok(spec, cits, shape, refs):
            for doc, tokens, target in view.cited_ids(i):
                if not spec.docid_ok(doc):
                    view.add(
                        "docid_pattern",
                        f"cited doc id {doc!r} is not a valid document id"
                        f"{_collection(spec)}: it must match {spec.docid_pattern} as a whole"
                        f"{_example(spec)}",
                        *tokens,
                        target=target,
                    )
        if spec.flag_duplicate_citations and shape == "rag24" and isinstance(cits, list):
            dupes = [c for c, k in Counter(c for c in cits if isinstance(c, int)).items() if k > 1]
            for c in dupes:
                j = len(cits) - 1 - cits[::-1].index(c)
                view.add(
                    "citation_duplicate",
                    f"{key}[{i}] cites reference {c} more than once; cite each reference once per sentence",
                    *view.sptr(i, "citations", j),
                )


def _points_into_references(view: ReportView) -> dict[str, Any]:
    """A reference index's related place: the references list it should point into."""
    if "references" not in view.value:
        return {}
    return {RELATED: (Related("the references list this index points into", "/references"),)}


def _all_ids_ok(spec: TrackSpec, cits: Any, shape: str | None, refs: JsonArray) -> bool:
    """Fast path: every doc id this sentence cites is valid (no pointers built)."""
    if type(cits) is not list and type(cits) is not dict:
        return True  # not a citation container: citation_format says so
    if shape == "rag24":
        n = len(refs)
        return spec.all_docids_ok([refs[c] for c in cits if type(c) is int and 0 <= c < n])
    return spec.all_docids_ok(cits)  # a list of ids, or the keys of a {doc id: score} map


def _collection(spec: TrackSpec) -> str:
    return f" for {spec.collection_ids[0]}" if spec.collection_ids else ""


def _example(spec: TrackSpec) -> str:
    return f" (e.g. {spec.docid_example})" if spec.docid_example else ""


def check_scores(view: ReportView) -> None:
    """citation_score: every {doc id: score} value must be a JSON number."""
    key = view.sentences_ptr[1:]
    for i, kind in enumerate(view.kinds):
        if (kind != "ragtime_lax" and kind != "ragtime_bad") or view.sentence_shape(i) != "ragtime":
            continue  # "ragtime": every score is already a JSON number
        cits = (view.sentences or [])[i].get("citations")  # kinds has one entry per sentence
        for doc, score in cits.items():
            if not is_number(score):
                if isinstance(score, int) and not isinstance(score, bool):  # beyond the float range
                    view.add(
                        "citation_score",
                        f"{key}[{i}] cites {doc!r} with a {len(str(abs(score)))}-digit "
                        "score, too large for a 64-bit float; use a number like 0.5",
                        *view.sptr(i, "citations", doc),
                    )
                    continue
                view.add(
                    "citation_score",
                    f"{key}[{i}] cites {doc!r} with score {json_shown(score)}; a score "
                    "must be a JSON number (e.g. 0.5)",
                    *view.sptr(i, "citations", doc),
                )


CHECKS = (
    ReportCheck(check_shapes, SHAPES, needs_spec=False),
    ReportCheck(check_scores, SCORES, needs_spec=False),
    ReportCheck(check_empty_answer, EMPTY_ANSWER, needs_spec=False, gate=True),
    ReportCheck(check_sentences, SENTENCES, needs_spec=False),  # without a spec: its structural part
)
RULES = (
    Rule("empty_answer", check_empty_answer, default_severity="warning"),
    Rule("blank_sentence", check_sentences, fix_blank_sentence, default_severity="warning"),
    # mixed or malformed shapes; a shape the track does not accept, a missing citations key
    Rule("citation_format", (check_shapes, check_sentences), fix_citation_format),
    Rule("citation_count", check_sentences, fix_citation_count),
    Rule("reference_index", check_sentences, fix_reference_index),
    Rule("citation_score", check_scores, fix_citation_score),
    Rule("docid_pattern", check_sentences),
    Rule("citation_duplicate", check_sentences, fix_citation_duplicate),
)
