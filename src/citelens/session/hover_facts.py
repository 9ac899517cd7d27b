"""What a hover says about a `references` entry and a metadata field: the facts, worked
out here from the document and its spec (the editor only formats them).

- a `references` entry: which sentences cite the document it names;
- a metadata key or value: what the active spec requires of that field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citelens.session.cited import decoded_report
from citelens.source.json_nodes import pointer_tokens

if TYPE_CHECKING:
    from citelens.session.open_document import OpenDocument

#: a sentence's text is shortened to this many characters in a hover
SHORT_TEXT = 80


@dataclass(frozen=True)
class CitingSentence:
    index: int  # the sentence's index in its report's sentence list
    pointer: str  # RFC 6901, within the report
    text: str  # shortened (… at the cut); "" when the sentence has no text


@dataclass(frozen=True)
class ReferenceFacts:
    """A `references` entry: its index, the doc id it holds, who cites it."""

    index: int
    doc_id: str | None
    citing: list[CitingSentence]
    start: int
    end: int


@dataclass(frozen=True)
class FieldFacts:
    """A metadata field under the cursor and what the active spec asks of it."""

    field: str
    spec: str
    requirements: list[str]
    start: int
    end: int


def short(text: str, limit: int = SHORT_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def reference_at(doc: OpenDocument, offset: int) -> ReferenceFacts | None:
    """The `references` entry under `offset` and the sentences citing it."""
    node = doc.node_at(offset)
    if node is None or node.report is None or node.kind == "key":
        return None
    tokens = pointer_tokens(node.pointer)
    if len(tokens) != 2 or tokens[0] != "references" or not tokens[1].isdigit():
        return None
    value = decoded_report(doc, node.report)
    refs = value.get("references") if isinstance(value, dict) else None
    k = int(tokens[1])
    if not isinstance(refs, list) or k >= len(refs):
        return None
    doc_id = refs[k] if isinstance(refs[k], str) else None
    citing = [
        CitingSentence(s.index, s.pointer, short(s.text or ""))
        for s in doc.sentences(node.report)
        if doc_id is not None and any(c.doc_id == doc_id for c in s.citations)
    ]
    return ReferenceFacts(k, doc_id, citing, node.start, node.end)


def field_at(doc: OpenDocument, offset: int) -> FieldFacts | None:
    """The metadata field whose key or value holds `offset`, under the document's spec
    (None without a spec, or off metadata)."""
    from citelens.specs.field_requirements import field_requirements

    spec = doc.checker.spec
    node = doc.node_at(offset)
    if spec is None or node is None or node.report is None:
        return None
    tokens = pointer_tokens(node.pointer)
    # the field's own node: its key, or its whole value (not a part of a nested value)
    if spec.layout == "flat":
        if len(tokens) != 1 or tokens[0] in (spec.sentences_key, "references", "documents"):
            return None
    elif len(tokens) != 2 or tokens[0] != "metadata":
        return None
    field = tokens[-1]
    return FieldFacts(field, spec.track, field_requirements(spec, field), node.start, node.end)
