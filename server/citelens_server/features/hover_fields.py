"""Hovers on a `references` entry (the sentences citing it) and on a metadata key or
value (what the active spec requires of that field). The engine works the facts out
(`citelens.session.hover_facts`); this module only formats them, escaping report text."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.session import OpenDocument
    from citelens.session.hover_facts import FieldFacts, ReferenceFacts
    from citelens_server.lsp.markdown import Format


def build(doc: OpenDocument, offset: int, fmt: Format) -> tuple[list[str], tuple[int, int]] | None:
    """(paragraphs, the node's span) for a references entry or a metadata field, or None."""
    from citelens.session.hover_facts import field_at, reference_at

    ref = reference_at(doc, offset)
    if ref is not None:
        return [reference_text(ref, fmt)], (ref.start, ref.end)
    field = field_at(doc, offset)
    if field is not None:
        return [field_text(field, fmt)], (field.start, field.end)
    return None


def reference_text(ref: ReferenceFacts, fmt: Format) -> str:
    name = fmt.text(ref.doc_id) if ref.doc_id is not None else "an entry that is not a doc id"
    head = f"{fmt.bold(f'references[{ref.index}]')} · {name}"
    if not ref.citing:
        return head + "\n\nCited by no sentence of this report."
    lines = [head, f"Cited by {len(ref.citing)} sentence(s):"]
    for s in ref.citing:
        where = f"{s.pointer.strip('/').split('/')[0]}[{s.index}]"  # answer[2]: as the report lists it
        lines.append(f"- {fmt.bold(where)}: {fmt.text(s.text) if s.text else '(no text)'}")
    return "\n\n".join(lines[:2]) + "\n\n" + "\n".join(lines[2:])


def field_text(field: FieldFacts, fmt: Format) -> str:
    head = f"{fmt.bold(fmt.text(field.field))} · what {fmt.text(field.spec)} requires"
    return head + "\n\n" + "\n".join(f"- {fmt.text(r)}" for r in field.requirements)
