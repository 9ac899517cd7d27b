"""`schema`: the report's JSON shape, before any track rule.

The tables below are the wire shape that autojudge-base's `Report` model loads (field by
field, with pydantic's lax coercions), so a report the reference cannot load always gets
a `schema` error here, placed on the offending node, and the remaining rules still run.
"""

from __future__ import annotations

from typing import Any, Callable

from citelens.check.finding import Target
from citelens.check.view import ReportView, is_int_like, str_id

_BOOL_TEXT = {"true", "false", "yes", "no", "on", "off", "1", "0", "t", "f", "y", "n"}
TASKS = ("multilingual", "english", "rag")

#: type name -> (test, phrase for messages)
TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "int": (is_int_like, "an integer"),
    "bool": (lambda v: isinstance(v, bool) or v in (0, 1)
             or (isinstance(v, str) and v.lower() in _BOOL_TEXT), "true or false"),
    "object": (lambda v: isinstance(v, dict), "an object"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "str_list": (lambda v: isinstance(v, list), "a list of strings"),  # items checked one by one
    "str_or_int": (lambda v: isinstance(v, (str, int)), "a string or an integer"),
    "task": (lambda v: v in TASKS, "one of " + ", ".join(map(repr, TASKS))),
}

# field -> (type, required). Optional fields may also be null.
REPORT_FIELDS = {
    "is_ragtime": ("bool", False), "metadata": ("object", True), "evaldata": ("object", False),
    "responses": ("list", False), "answer": ("list", False), "references": ("str_list", False),
    "ranking": ("list", False), "documents": ("object", False),
}
METADATA_FIELDS = {
    "team_id": ("str", True), "run_id": ("str", True), "topic_id": ("str", False),
    "narrative_id": ("str_or_int", False), "collection_ids": ("str_list", False),
    "task": ("task", False), "description": ("str", False), "creator": ("object", False),
    "extra": ("object", False), "use_starter_kit": ("int", False), "type": ("str", False),
    "request_id": ("str", False), "limit": ("int", False), "narrative": ("str", False),
    "run_desc": ("str", False), "evaldata": ("object", False),
}
# the flat 2024 format (layout "flat"): no metadata object
FLAT_FIELDS = {
    "run_id": ("str", True), "topic_id": ("str_or_int", True), "topic": ("str", True),
    "references": ("str_list", True), "response_length": ("int", True), "answer": ("list", True),
}
SENTENCE_FIELDS = {"text": ("str", True), "metadata": ("object", False), "evaldata": ("object", False)}


def _fields(view: ReportView, obj: dict, table: dict, base: tuple, where: str) -> None:
    for key, (type_name, required) in table.items():
        test, phrase = TYPES[type_name]
        if key not in obj or (obj[key] is None and not required):
            if required and key not in obj:
                view.add("schema", f"{where} has no {key!r} (required, {phrase})", *base, key,
                         target=Target.MISSING)
            continue
        value = obj[key]
        if value is None or not test(value):
            view.add("schema", f"{where}.{key} must be {phrase}, not {_show(value)}", *base, key)
            continue
        if type_name == "str_list":
            for j, item in enumerate(value):
                if not isinstance(item, str):
                    view.add("schema", f"{where}.{key}[{j}] must be a string, not {_show(item)}",
                             *base, key, j)


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
        if not isinstance(s, dict):
            view.add("schema", f"{view.sentences_ptr[1:]}[{i}] must be an object with 'text' and "
                     f"'citations', not {_show(s)}", *view.sptr(i))
            continue
        _fields(view, s, SENTENCE_FIELDS, view.sptr(i), f"{view.sentences_ptr[1:]}[{i}]")


def _check_topic_ids(view: ReportView, md: dict) -> None:
    tid, nid = md.get("topic_id"), md.get("narrative_id")
    if tid is None and nid is None:
        field_name = view.spec.topic_id_field if view.spec is not None else "topic_id"
        view.add("schema", f"metadata has no topic id: set {field_name!r}", "metadata", field_name,
                 target=Target.MISSING)
    elif tid is not None and nid is not None and str_id(tid) != str_id(nid):
        view.add("schema", f"metadata.topic_id {tid!r} and metadata.narrative_id {nid!r} name "
                 "different topics; keep one, or make them equal", "metadata", "narrative_id")
