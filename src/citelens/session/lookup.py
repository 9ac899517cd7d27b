"""Cursor -> JSON node, sentence and citation: what a hover, a go-to-definition or a
"show evidence" needs to know about the place under the cursor.

All spans are half-open code-point offsets into the document text; an offset belongs to
the innermost node whose span holds it, and to a member's key when it is on the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from citelens.check.view import ReportView
from citelens.source.json_nodes import Node, pointer_join, pointer_tokens
from citelens.specs.model import TrackSpec

NodeKind = Literal["object", "array", "string", "number", "true", "false", "null", "key"]


@dataclass(frozen=True)
class NodeInfo:
    """One JSON node of a report: `pointer` is RFC 6901 within the report (a key's
    pointer is its member's), `parents` the enclosing nodes, innermost first."""

    report: int | None
    pointer: str
    kind: NodeKind
    start: int
    end: int
    parents: tuple[NodeInfo, ...] = ()


@dataclass(frozen=True)
class CitationInfo:
    """One citation token: `doc_id` is the cited document (a rag24 index resolved
    through `references`; None when it does not resolve), `score` a RAGTIME score."""

    report: int
    sentence: int
    index: int  # position in the sentence's citations (list index, or map order)
    pointer: str
    start: int
    end: int
    doc_id: str | None
    score: float | None
    shape: str  # "rag24" | "neuclir" | "ragtime"


@dataclass(frozen=True)
class SentenceInfo:
    report: int
    index: int
    pointer: str
    text: str | None
    start: int
    end: int
    citations: list[CitationInfo] = field(default_factory=list)


def node_at(root: Node, offset: int, report: int | None) -> NodeInfo | None:
    """The innermost node of `root` whose span holds `offset` (None outside it)."""
    if not root.start <= offset < root.end:
        return None
    info = NodeInfo(report, "", root.kind, root.start, root.end)  # type: ignore[arg-type]
    node, tokens = root, list[str]()
    while True:
        child: Node | None = None
        if node.kind == "object":
            for m in node.members:
                if m.key_start <= offset < m.key_end:
                    return NodeInfo(
                        report, pointer_join(*tokens, m.key), "key", m.key_start, m.key_end, _chain(info)
                    )
                if m.value.start <= offset < m.value.end:
                    child, token = m.value, m.key
                    break
        elif node.kind == "array":
            for i, item in enumerate(node.items):
                if item.start <= offset < item.end:
                    child, token = item, str(i)
                    break
        if child is None:
            return info
        tokens.append(token)
        info = NodeInfo(report, pointer_join(*tokens), child.kind, child.start, child.end, _chain(info))  # type: ignore[arg-type]
        node = child


def _chain(info: NodeInfo) -> tuple[NodeInfo, ...]:
    return (info, *info.parents)


def child_at(root: Node, pointer: str) -> Node | None:
    node: Node | None = root
    for token in pointer_tokens(pointer):
        node = node.child(token) if node is not None else None
    return node


def sentences(root: Node, value: Any, spec: TrackSpec | None, report: int) -> list[SentenceInfo]:
    """Every sentence of one report with its citations, in order."""
    if not isinstance(value, dict):
        return []
    view = ReportView.build(value, spec)
    container = child_at(root, view.sentences_ptr)
    if container is None or container.kind != "array":
        return []
    refs = view.references() or []
    out: list[SentenceInfo] = []
    for i, s_node in enumerate(container.items):
        s = view.sentences[i] if view.sentences and i < len(view.sentences) else None
        pointer = pointer_join(view.sentences_ptr.lstrip("/"), i)
        text = s.get("text") if isinstance(s, dict) else None
        cits = _citations(view, i, s, s_node, refs, report, pointer)
        out.append(
            SentenceInfo(
                report, i, pointer, text if isinstance(text, str) else None, s_node.start, s_node.end, cits
            )
        )
    return out


def _citations(
    view: ReportView, i: int, s: Any, s_node: Node, refs: list[Any], report: int, pointer: str
) -> list[CitationInfo]:
    if not isinstance(s, dict) or s_node.kind != "object":
        return []
    m = s_node.member("citations")
    if m is None:
        return []
    node, cits = m.value, s.get("citations")
    shape = view.sentence_shape(i) or ""
    out: list[CitationInfo] = []
    if node.kind == "array" and isinstance(cits, list):
        for j, (c_node, c) in enumerate(zip(node.items, cits)):
            doc: str | None = None
            if shape == "rag24" or (not isinstance(c, str) and shape != "neuclir"):
                index = c if isinstance(c, int) and not isinstance(c, bool) else _int_text(c)
                if index is not None and 0 <= index < len(refs) and isinstance(refs[index], str):
                    doc = refs[index]
                shape_j = "rag24"
            else:
                doc = c if isinstance(c, str) else None
                shape_j = "neuclir"
            out.append(
                CitationInfo(
                    report, i, j, f"{pointer}/citations/{j}", c_node.start, c_node.end, doc, None, shape_j
                )
            )
    elif node.kind == "object" and isinstance(cits, dict):
        for j, member in enumerate(node.members):
            score = cits.get(member.key)
            number = _score(score)
            out.append(
                CitationInfo(
                    report,
                    i,
                    j,
                    pointer + pointer_join("citations", member.key),
                    member.key_start,
                    member.value.end,
                    member.key,
                    number,
                    "ragtime",
                )
            )
    return out


def _int_text(c: Any) -> int | None:
    if isinstance(c, str) and c.strip().lstrip("+-").isdigit():
        return int(c)
    if isinstance(c, float) and c.is_integer():
        return int(c)
    return None


def _score(value: object) -> float | None:
    """A RAGTIME score as a number (None: not a number, or an integer too large for a
    float, which the `citation_score` rule reports)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:
        return None
