"""Completion in a run file, from the spec and the run's own data: metadata keys (the
spec's first), the spec's allowed metadata values, topic ids from the topics file, and
cited doc ids from the report's `references` or embedded `documents`.

A report being typed is rarely valid JSON, so the place of the cursor is read by a
tolerant scan of the report's text up to the cursor (`context_at`): the keys and indexes
of the containers it is in, and whether it is at a key or a value. The candidates come
from the report as decoded when it parses, else from its `references` and `documents`
read from the text as far as they are complete.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from citelens.check.rules.schema import METADATA_FIELDS, TASKS
from citelens.check.view import TOPIC_ID_ALIASES

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec
    from citelens.session.open_document import OpenDocument

Kind = Literal["key", "value", "topic", "doc_id", "index"]


@dataclass(frozen=True, slots=True)
class Completion:
    """One candidate: `insert` replaces file text[start:end] (code points)."""

    label: str
    insert: str
    kind: Kind
    detail: str = ""
    start: int = 0
    end: int = 0


@dataclass(slots=True)
class Context:
    """Where the cursor is: the path of containers (keys and indexes), whether it is at
    a key or a value, and the partial token under it (`token_start`: where it begins)."""

    path: list[str | int] = field(default_factory=list)
    at: Literal["key", "value", "none"] = "none"
    token_start: int = 0
    in_string: bool = False
    present: set[str] = field(default_factory=set)  # keys already in the innermost object


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NUMBER_OR_WORD = re.compile(r"[-+0-9.eE]+|true|false|null")


def context_at(text: str, start: int, offset: int) -> Context:
    """The tolerant scan of text[start:offset] (one report; the cursor at `offset`)."""
    stack: list[dict[str, Any]] = []  # {"kind", "key", "index", "expect", "keys"}
    i = start
    last_string: str | None = None
    while i < offset:
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            if m is None or m.end() > offset:  # the cursor inside a string being typed
                return _context(stack, i, True)
            try:
                last_string = json.loads(m.group())
            except ValueError:
                last_string = m.group()[1:-1]
            frame = stack[-1] if stack else None
            if frame is not None and frame["kind"] == "object" and frame["expect"] == "key":
                frame["key"] = last_string
                frame["keys"].add(last_string)
                frame["expect"] = "colon"
            i = m.end()
            continue
        if ch in "{[":
            stack.append(
                {
                    "kind": "object" if ch == "{" else "array",
                    "key": None,
                    "index": 0,
                    "expect": "key" if ch == "{" else "value",
                    "keys": set(),
                }
            )
        elif ch in "}]":
            if stack:
                stack.pop()
        elif ch == ":" and stack and stack[-1]["kind"] == "object":
            stack[-1]["expect"] = "value"
        elif ch == ",":
            if stack and stack[-1]["kind"] == "object":
                stack[-1]["expect"], stack[-1]["key"] = "key", None
            elif stack:
                stack[-1]["index"] += 1
        elif not ch.isspace():
            m = _NUMBER_OR_WORD.match(text, i)
            if m is not None and m.end() >= offset:
                return _context(stack, i, False)
            i = m.end() if m is not None else i + 1
            continue
        i += 1
    return _context(stack, offset, False)


def _context(stack: list[dict[str, Any]], token_start: int, in_string: bool) -> Context:
    path: list[str | int] = []
    for n, _frame in enumerate(stack):
        if n == 0:
            continue
        parent = stack[n - 1]
        path.append(parent["key"] if parent["kind"] == "object" else parent["index"])
    if not stack:
        return Context(path, "none", token_start, in_string)
    top = stack[-1]
    if top["kind"] == "object":
        at: Literal["key", "value", "none"] = (
            "key" if top["expect"] == "key" else "value" if top["expect"] == "value" else "none"
        )
        if at == "value":
            path.append(top["key"])
        return Context(path, at, token_start, in_string, set(top["keys"]))
    path.append(top["index"])
    return Context(path, "value", token_start, in_string)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _report_value(doc: OpenDocument, item: Any) -> dict[str, Any]:
    """The report as far as it can be read: decoded, or its complete `references` and
    `documents` read from the text."""
    if item.syntax is None:
        value = item.decoded(doc.text).value
        return value if isinstance(value, dict) else {}
    text = doc.text[item.start : item.end]
    out: dict[str, Any] = {}
    m = re.search(r'"references"\s*:\s*(\[[^\]]*\])', text)
    if m is not None:
        with contextlib.suppress(ValueError):
            out["references"] = json.loads(m.group(1))
    m = re.search(r'"documents"\s*:\s*[\[{]', text)
    if m is not None:
        ids = re.findall(r'"(?:id|doc_id|docid)"\s*:\s*("(?:[^"\\]|\\.)*")', text[m.end() :])
        out["documents"] = [{"id": json.loads(s)} for s in ids]
    return out


def _doc_ids(report: dict[str, Any]) -> list[tuple[str, str]]:
    """(doc id, where it comes from) of the report's references and embedded documents."""
    seen: dict[str, str] = {}
    refs = report.get("references")
    if isinstance(refs, list):
        for n, ref in enumerate(refs):
            if isinstance(ref, str):
                seen.setdefault(ref, f"references[{n}]")
    docs = report.get("documents")
    if isinstance(docs, dict):
        for key in docs:
            seen.setdefault(str(key), "embedded document")
    elif isinstance(docs, list):
        for d in docs:
            if isinstance(d, dict):
                for k in ("id", "doc_id", "docid"):
                    if isinstance(d.get(k), str):
                        seen.setdefault(d[k], "embedded document")
                        break
    return list(seen.items())


def completions(doc: OpenDocument, offset: int) -> list[Completion]:
    """The completion candidates at `offset` of an open run file ([] outside a report or
    where nothing is known to offer)."""
    item = _item_before(doc, offset)
    if item is None:
        return []
    spec = doc.checker.spec
    ctx = context_at(doc.text, item.start, offset)
    if ctx.at == "none" or (not ctx.path and ctx.at != "key"):
        return []
    meta_path: list[str | int] = [] if spec is not None and spec.layout == "flat" else ["metadata"]
    end = _token_end(doc.text, ctx.token_start, item.end) if ctx.in_string else offset
    start = ctx.token_start
    out: list[Completion] = []
    if ctx.at == "key" and ctx.path == meta_path:
        out = _metadata_keys(spec, ctx.present)
    elif ctx.at == "value" and ctx.path[:-1] == meta_path and isinstance(ctx.path[-1], str):
        out = _metadata_values(doc, spec, ctx.path[-1])
    elif _in_citations(ctx, spec):
        out = _citation_candidates(_report_value(doc, item), ctx)
    return [Completion(c.label, c.insert, c.kind, c.detail, start, end) for c in out]


def _item_before(doc: OpenDocument, offset: int) -> Any:
    """The report the cursor is in: the one holding it, or (a report being typed, whose
    span may stop at its first error) the last one starting before it on the same line."""
    found = doc.item_at(offset)
    if found is not None:
        return found
    before = [item for item in doc.items if item.start <= offset]
    if not before:
        return None
    item = before[-1]
    if offset <= item.end or "\n" not in doc.text[item.start : offset]:
        return item
    return None


def _token_end(text: str, start: int, limit: int) -> int:
    """The end of the string starting at `start`; an unterminated one ends before the
    next `,` `}` `]` or line break."""
    m = _STRING.match(text, start)
    if m is not None and m.end() <= limit and "\n" not in m.group():
        return m.end()
    stop = re.compile(r"[,}\]\n\r]").search(text, start + 1, limit)
    return stop.start() if stop is not None else limit


def _metadata_keys(spec: TrackSpec | None, present: set[str]) -> list[Completion]:
    keys: dict[str, str] = {}
    if spec is not None:
        for k in spec.mandatory_metadata:
            keys[k] = f"required by {spec.track}"
        for k in spec.recommended_metadata:
            keys.setdefault(k, f"recommended by {spec.track}")
    if spec is None or not spec.forbid_extra_metadata:
        for k in METADATA_FIELDS:
            keys.setdefault(k, "optional")
    return [Completion(k, _json(k), "key", why) for k, why in keys.items() if k not in present]


def _metadata_values(doc: OpenDocument, spec: TrackSpec | None, key: str) -> list[Completion]:
    if spec is not None and key in spec.metadata_values:
        return [
            Completion(_json(v), _json(v), "value", f"allowed by {spec.track}")
            for v in spec.metadata_values[key]
        ]
    topic_keys = {spec.topic_id_field} if spec is not None else set(TOPIC_ID_ALIASES)
    if key in topic_keys or (spec is not None and spec.layout == "metadata" and key in TOPIC_ID_ALIASES):
        topics = doc.checker.topics or {}
        out = []
        for topic_id, topic in topics.items():
            text = getattr(topic, "text", None) or ""
            out.append(Completion(str(topic_id), _json(str(topic_id)), "topic", text[:80]))
        return out
    if key == "task":
        return [Completion(_json(t), _json(t), "value", "a task of the reference model") for t in TASKS]
    return []


def _in_citations(ctx: Context, spec: TrackSpec | None) -> bool:
    """Inside a sentence's `citations`: an array element, or a key of the RAGTIME object."""
    p = ctx.path
    keys = ("answer", "responses") if spec is None else (spec.sentences_key,)
    if len(p) >= 3 and p[0] in keys and isinstance(p[1], int) and p[2] == "citations":
        return (len(p) == 4 and ctx.at == "value") or (len(p) == 3 and ctx.at == "key")
    return False


def _citation_candidates(report: dict[str, Any], ctx: Context) -> list[Completion]:
    ids = _doc_ids(report)
    if ctx.at == "key" or ctx.in_string:  # a doc id: a RAGTIME key, or a doc-id list entry
        return [Completion(doc_id, _json(doc_id), "doc_id", where) for doc_id, where in ids]
    refs = report.get("references")
    out = []
    if isinstance(refs, list):  # an index into `references` (rag24), or a doc id
        out = [
            Completion(str(n), str(n), "index", f"references[{n}] = {ref}")
            for n, ref in enumerate(refs)
            if isinstance(ref, str)
        ]
    return out + [Completion(doc_id, _json(doc_id), "doc_id", where) for doc_id, where in ids]
