"""`schema`: the report's JSON shape, before any track rule.

The tables below are the wire shape that autojudge-base's `Report` model loads (field by
field, with pydantic's lax coercions), so a report the reference cannot load always gets
a `schema` error here, placed on the offending node, and the remaining rules still run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeAlias

from citelens.check.finding import Finding, Target
from citelens.check.fix_context import FixContext, id_to_string
from citelens.check.rule import SCHEMA, ReportCheck, Rule
from citelens.check.view import (
    JsonObject,
    PointerTokens,
    ReportView,
    citation_kind,
    is_int_like,
    is_score_like,
    resolve_shape,
    str_id,
)
from citelens.source.edits import Fix
from citelens.source.json_nodes import pointer_tokens
from citelens.source.json_types import json_shown

_BOOL_TEXT = {"true", "false", "yes", "no", "on", "off", "1", "0", "t", "f", "y", "n"}
TASKS = ("multilingual", "english", "rag")

#: type name -> (test, phrase for messages)
TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "int": (is_int_like, "an integer"),
    "bool": (
        lambda v: isinstance(v, bool) or v in (0, 1) or (isinstance(v, str) and v.lower() in _BOOL_TEXT),
        "true or false",
    ),
    "object": (lambda v: isinstance(v, dict), "an object"),
    "list": (lambda v: isinstance(v, list), "an array"),
    "str_list": (lambda v: isinstance(v, list), "an array of strings"),  # items checked one by one
    # pydantic's `str | int`: a string, or what its lax int takes (bool, 52.0)
    "str_or_int": (lambda v: isinstance(v, str) or is_int_like(v), "a string or an integer"),
    "float": (is_score_like, "a number"),
    "task": (lambda v: v in TASKS, "one of " + ", ".join(map(repr, TASKS))),
    "documents": (lambda v: isinstance(v, dict), "an object of doc id -> document"),  # entries below
    "ranking": (lambda v: isinstance(v, list), "an array of ranked documents"),  # items below
}

#: field -> (type name in TYPES, required); optional fields may also be null
FieldTable: TypeAlias = dict[str, tuple[str, bool]]
#: one probe of a ranking's items: (view, item, pointer tokens, where in words)
ItemCheck: TypeAlias = Callable[[ReportView, Any, PointerTokens, str], None]

REPORT_FIELDS: FieldTable = {
    "is_ragtime": ("bool", False),
    "metadata": ("object", True),
    "evaldata": ("object", False),
    "responses": ("list", False),
    "answer": ("list", False),
    "references": ("str_list", False),
    "ranking": ("ranking", False),
    "documents": ("documents", False),
    "path": ("str", False),  # the reference model's (file path) field: a string if given
}
METADATA_FIELDS = {
    "team_id": ("str", True),
    "run_id": ("str", True),
    "topic_id": ("str", False),
    "narrative_id": ("str_or_int", False),
    "collection_ids": ("str_list", False),
    "task": ("task", False),
    "description": ("str", False),
    "creator": ("object", False),
    "extra": ("object", False),
    "use_starter_kit": ("int", False),
    "type": ("str", False),
    "request_id": ("str", False),
    "limit": ("int", False),
    "narrative": ("str", False),
    "run_desc": ("str", False),
    "evaldata": ("object", False),
}
# optional, but typed without None in the reference model (`topic_id: str = None`), so an
# explicit null does not load there (nor does `"is_ragtime": null`)
NOT_NULL_METADATA = frozenset({"topic_id", "creator", "extra"})
# the flat 2024 format (layout "flat"): no metadata object
FLAT_FIELDS = {
    "run_id": ("str", True),
    "topic_id": ("str_or_int", True),
    "topic": ("str", True),
    "references": ("str_list", True),
    "response_length": ("int", True),
    "answer": ("list", True),
}
SENTENCE_FIELDS = {"text": ("str", True), "metadata": ("object", False), "evaldata": ("object", False)}
# embedded documents and rankings (autojudge-base Document, RankedDocument, RetrievedDocuments)
DOCUMENT_FIELDS = {
    "id": ("str", True),
    "text": ("str", True),
    "title": ("str", False),
    "url": ("str", False),
    "metadata": ("object", False),
    "created": ("str", False),
    "cc_file": ("str", False),
    "time": ("str", False),
    "lang": ("str", False),
}
RANKED_DOCUMENT_FIELDS = {"doc_id": ("str", True), "rank": ("int", True), "score": ("float", False)}
RETRIEVED_FIELDS = {
    "query_id": ("str", True),
    "test_collection": ("str", True),
    "run_id": ("str", False),
    "metadata": ("object", False),
}


def _nullable(table: FieldTable, key: str, required: bool) -> bool:
    return (
        not required
        and (table is not REPORT_FIELDS or key != "is_ragtime")
        and (table is not METADATA_FIELDS or key not in NOT_NULL_METADATA)
    )


_PLAIN = {"str": str, "object": dict, "list": list}  # types a plain isinstance test decides
_FAST: dict[int, tuple[tuple[str, ...], dict[str, tuple[Any, Callable[[Any], bool], bool]]]] = {}


def _fast_table(
    table: FieldTable,
) -> tuple[tuple[str, ...], dict[str, tuple[Any, Callable[[Any], bool], bool]]]:
    """(required keys, key -> (plain type or None, test, nullable)) of a field table."""
    fast = _FAST.get(id(table))
    if fast is None:
        fast = _FAST[id(table)] = (
            tuple(k for k, (_, req) in table.items() if req),
            {
                k: (_PLAIN.get(t), _str_list if t == "str_list" else TYPES[t][0], _nullable(table, k, req))
                for k, (t, req) in table.items()
                if t not in ("documents", "ranking")
            },
        )
    return fast


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(x) is str for x in value)


def _all_fine(obj: JsonObject, table: FieldTable) -> bool:
    """True when every field of the table is fine in `obj` (the usual case): a pass over
    the members present, with no messages built. Fields with items to check say no."""
    required, checks = _fast_table(table)
    for key in required:
        if key not in obj:
            return False
    for key, value in obj.items():
        if key in table:
            check = checks.get(key)
            if check is None:
                return False  # a list or map whose items need the full check
            plain, test, nullable = check
            if value is None:
                if not nullable:
                    return False
            elif not (isinstance(value, plain) if plain is not None else test(value)):
                return False
    return True


def _fields(view: ReportView, obj: JsonObject, table: FieldTable, base: PointerTokens, where: str) -> None:
    if _all_fine(obj, table):
        return
    for key, (type_name, required) in table.items():
        test, phrase = TYPES[type_name]
        nullable = _nullable(table, key, required)
        if key not in obj or (obj[key] is None and nullable):
            if required and key not in obj:
                view.add(
                    "schema",
                    f"{where} has no {key!r} (required, {phrase})",
                    *base,
                    key,
                    target=Target.MISSING,
                )
            continue
        value = obj[key]
        if value is None or not test(value):
            view.add("schema", f"{where}.{key} must be {phrase}, not {json_shown(value)}", *base, key)
            continue
        if type_name == "str_list":
            for j, item in enumerate(value):
                if not isinstance(item, str):
                    view.add(
                        "schema",
                        f"{where}.{key}[{j}] must be a string, not {json_shown(item)}",
                        *base,
                        key,
                        j,
                    )
        elif type_name == "documents":
            for doc_id, doc in value.items():
                _model(view, doc, DOCUMENT_FIELDS, (*base, key, doc_id), f"{where}.{key}[{doc_id!r}]")
        elif type_name == "ranking":
            _ranking(view, value, (*base, key), f"{where}.{key}")


def _model(view: ReportView, obj: Any, table: FieldTable, base: PointerTokens, where: str) -> None:
    if isinstance(obj, dict):
        _fields(view, obj, table, base, where)
    else:
        view.add("schema", f"{where} must be an object, not {json_shown(obj)}", *base)


def _ranking(view: ReportView, items: list[Any], base: PointerTokens, where: str) -> None:
    """A list of retrieval results (query_id, test_collection, ranked_docs) or of ranked
    documents (doc_id, rank): every item one kind, as the reference's union demands."""

    def problems(check: ItemCheck) -> list[Finding]:
        probe = ReportView(value={}, spec=view.spec)
        for j, item in enumerate(items):
            check(probe, item, (*base, j), f"{where}[{j}]")
        return probe.findings

    def retrieved(probe: ReportView, item: Any, tokens: PointerTokens, at: str) -> None:
        _model(probe, item, RETRIEVED_FIELDS, tokens, at)
        docs = item.get("ranked_docs") if isinstance(item, dict) else None
        if isinstance(item, dict) and "ranked_docs" in item and not isinstance(docs, list):
            probe.add(
                "schema", f"{at}.ranked_docs must be an array, not {json_shown(docs)}", *tokens, "ranked_docs"
            )
        for k, d in enumerate(docs if isinstance(docs, list) else []):
            ranked(probe, d, (*tokens, "ranked_docs", k), f"{at}.ranked_docs[{k}]")

    def ranked(probe: ReportView, item: Any, tokens: PointerTokens, at: str) -> None:
        _model(probe, item, RANKED_DOCUMENT_FIELDS, tokens, at)
        doc = item.get("doc") if isinstance(item, dict) else None
        if doc is not None:
            _model(probe, doc, DOCUMENT_FIELDS, (*tokens, "doc"), f"{at}.doc")

    best = min((problems(retrieved), problems(ranked)), key=len)
    for f in best:
        f = replace(f, topic_id=view.topic_id)
        view.findings.append(f)


def check_schema(view: ReportView) -> None:
    value = view.value
    flat = view.spec is not None and view.spec.layout == "flat"
    if flat:
        _fields(view, value, FLAT_FIELDS, (), "the report")
    else:
        _fields(view, value, REPORT_FIELDS, (), "the report")
        md = value.get("metadata")
        if isinstance(md, dict):
            _fields(view, md, METADATA_FIELDS, ("metadata",), "metadata")
            _check_topic_ids(view, md)
    if not flat and value.get("responses") is None and value.get("answer") is None:
        key = view.spec.sentences_key if view.spec is not None else "responses"
        view.add("schema", f"the report has no {key!r} list of sentences", key, target=Target.MISSING)
    for i, s in enumerate(view.sentences or []):
        if (
            type(s) is dict
            and type(s.get("text")) is str
            and len(s) <= 2
            and (len(s) == 1 or "citations" in s)
        ):
            continue  # the usual {"text", "citations"} sentence: nothing else to check
        if not isinstance(s, dict):
            view.add(
                "schema",
                f"{view.sentences_ptr[1:]}[{i}] must be an object with 'text' and "
                f"'citations', not {json_shown(s)}",
                *view.sptr(i),
            )
            continue
        _fields(view, s, SENTENCE_FIELDS, view.sptr(i), f"{view.sentences_ptr[1:]}[{i}]")
    if not flat:
        _check_unread_list(view)


def _check_unread_list(view: ReportView) -> None:
    """A report with both `responses` and `answer` is read from `responses`, but the
    reference model still loads `answer` as a sentence list, so a malformed one means the
    report does not load there: say so (on the unread list)."""
    read = view.sentences_ptr[1:]
    key = "answer" if read == "responses" else "responses"
    other = view.value.get(key)
    if not isinstance(other, list) or not other:
        return
    for i, s in enumerate(other):
        if not isinstance(s, dict):
            view.add(
                "schema",
                f"{key}[{i}] must be an object with 'text' and 'citations', not {json_shown(s)} "
                f"(the report is read from {read!r}, but {key!r} must be valid too)",
                key,
                i,
            )
            continue
        _fields(view, s, SENTENCE_FIELDS, (key, i), f"{key}[{i}]")
    kinds = [citation_kind(s.get("citations")) if isinstance(s, dict) else "none" for s in other]
    if resolve_shape(kinds) is None:
        bad = next((i for i, k in enumerate(kinds) if k in ("invalid", "ragtime_bad")), None)
        view.add(
            "schema",
            f"{key} mixes citation shapes or has malformed citations; the report is read "
            f"from {read!r}, but {key!r} must be a valid sentence list too (or remove it)",
            *((key, bad, "citations") if bad is not None else (key,)),
        )


def _check_topic_ids(view: ReportView, md: JsonObject) -> None:
    tid, nid = md.get("topic_id"), md.get("narrative_id")
    if tid is None and nid is None:
        field_name = view.spec.topic_id_field if view.spec is not None else "topic_id"
        view.add(
            "schema",
            f"metadata has no topic id: set {field_name!r}",
            "metadata",
            field_name,
            target=Target.MISSING,
        )
    elif tid is not None and nid is not None and str_id(tid) != str_id(nid):
        view.add(
            "schema",
            f"metadata.topic_id {tid!r} and metadata.narrative_id {nid!r} name "
            "different topics; keep one, or make them equal",
            "metadata",
            "narrative_id",
        )


def fix_schema(f: Finding, ctx: FixContext) -> Fix | None:
    """A metadata id written as a number where the model wants a string: quote it."""
    tokens = pointer_tokens(f.pointer)
    if len(tokens) == 2 and tokens[0] == "metadata" and METADATA_FIELDS.get(tokens[1], ("",))[0] == "str":
        return id_to_string(f, ctx)
    return None


CHECKS = (ReportCheck(check_schema, SCHEMA, needs_spec=False),)
RULES = (Rule("schema", check_schema, fix_schema, scope="structure"),)
