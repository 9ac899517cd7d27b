"""A document converted to another track spec, as text edits plus positioned notes.

Applying the edits of a whole-file conversion gives exactly the text `citelens convert`
writes: JSON lines become one compact line per converted report with `\\n` endings,
arrays and single reports are written with two-space indentation, and reports that
cannot be converted are left out (and listed as `broken`). Each report is one edit, and
the separators between reports are edits of their own, so a single report can be
converted alone (`report=N`) with the same text the whole-file conversion gives it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from citelens.check.finding import Edit, Finding
from citelens.source.document import Item, Layout
from citelens.source.json_nodes import locate
from citelens.source.json_text import json_dumps
from citelens.specs.model import TrackSpec


@dataclass
class ConversionResult:
    """Edits on the document, what the conversion lost or changed (`notes`, severity
    info, positioned on the source), and what could not be converted (`broken`, errors).
    `converted` counts the reports written."""

    edits: list[Edit] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)
    broken: list[Finding] = field(default_factory=list)
    converted: int = 0


def loss_summary(notes: list[Finding]) -> str:
    """What a conversion loses, for its title: " (nothing lost)" or " (loses: 2× code, …)"."""
    if not notes:
        return " (nothing lost)"
    codes: dict[str, int] = {}
    for n in notes:
        codes[n.code] = codes.get(n.code, 0) + 1
    listed = ", ".join(f"{count}× {code}" for code, count in sorted(codes.items()))
    return f" (loses: {listed})"


def looks_flat(value: object) -> bool:
    """A report in the flat 2024 layout (no `metadata`, top-level `topic_id`/`answer`)."""
    return isinstance(value, dict) and "metadata" not in value and "topic_id" in value and "answer" in value


def flat_spec() -> TrackSpec:
    from citelens.specs import builtin_specs

    return next(s for s in builtin_specs().values() if s.layout == "flat")


def convert_items(
    text: str,
    layout: Layout,
    items: list[Item],
    target: TrackSpec,
    source_spec: TrackSpec | None,
    topics: Mapping[str, Any] | None,
    report: int | None,
) -> ConversionResult:
    """Convert the reports (or only report number `report`) of one document."""
    from citelens.check.view import ReportView
    from citelens.convert import ConversionError, convert_value

    if source_spec is None and items and looks_flat(items[0].value):
        source_spec = flat_spec()  # read it as the built-in spec of the flat layout
    out = ConversionResult()
    written: list[tuple[Item, str | None]] = []
    for item in items:
        if report is not None and item.index != report:
            continue
        if not item.ok:
            assert item.syntax is not None
            out.broken.append(
                Finding(
                    "json_syntax",
                    "error",
                    f"not valid JSON: {item.syntax.message}",
                    start=item.syntax.offset,
                    end=item.syntax.offset + 1,
                )
            )
            written.append((item, None))
            continue
        defaults = None
        if topics and isinstance(item.value, dict):
            tid = ReportView.build(item.value, source_spec).topic_id  # as the checker reads it
            topic = topics.get(tid) if tid is not None else None
            if topic is not None and getattr(topic, "text", None) is not None:
                defaults = {target.narrative_field: topic.text}
        try:
            value, losses = convert_value(item.value, source_spec, target, defaults=defaults)
        except ConversionError as exc:
            out.broken.extend(_why_not_loadable(text, item, source_spec, exc))
            written.append((item, None))
            continue
        out.converted += 1
        written.append((item, _write(value, layout)))
        for note in losses:
            start, end = locate(item.node(text), note.pointer, "value")
            out.notes.append(Finding(note.code, "info", note.message, note.pointer, start=start, end=end))
    if report is not None:
        out.edits = [Edit(i.start, i.end, new) for i, new in written if new is not None]
    else:
        out.edits = _file_edits(text, layout, written)
    out.edits = [e for e in out.edits if text[e.start : e.end] != e.new_text]
    return out


def _why_not_loadable(text: str, item: Item, source_spec: TrackSpec | None, exc: Exception) -> list[Finding]:
    """Why a report cannot be converted, as `citelens check` says it: its `schema`
    errors, each on its token (the model's own message only when the rules found none)."""
    from citelens.check.engine import run_rules

    node = item.node(text)
    found = [
        Finding(
            "schema",
            "error",
            f"cannot convert this report: {f.message}",
            f.pointer,
            f.target,
            *locate(node, f.pointer, f.target),
        )
        for f in run_rules(item.value, source_spec).findings
        if f.code == "schema"
    ]
    return found or [
        Finding(
            "schema",
            "error",
            f"cannot convert this report: {str(exc).splitlines()[0]}",
            start=item.start,
            end=item.start + 1,
        )
    ]


def _write(value: Any, layout: Layout) -> str:
    """A converted report as the file layout writes it (a lone surrogate kept escaped)."""
    if layout == "array":
        return json_dumps(value, indent=2).replace("\n", "\n  ")
    if layout == "object":
        return json_dumps(value, indent=2)
    return json_dumps(value)


def _file_edits(text: str, layout: Layout, written: list[tuple[Item, str | None]]) -> list[Edit]:
    """Edits turning the whole text into the converted file: each kept report replaced,
    the text before, between and after the kept reports made the layout's separators,
    and the reports that could not be converted removed with their separators."""
    kept = [(item, new) for item, new in written if new is not None]
    if layout == "array":
        head, sep, tail, nothing = "[\n  ", ",\n  ", "\n]\n", "[]\n"
    elif layout == "object" and len(kept) == 1:
        head, sep, tail, nothing = "", "", "\n", ""
    else:
        head, sep, tail, nothing = "", "\n", "\n", ""
    if not kept:
        return [Edit(0, len(text), nothing)]
    edits = [Edit(0, kept[0][0].start, head)]
    for k, (item, new) in enumerate(kept):
        edits.append(Edit(item.start, item.end, new))
        following = kept[k + 1][0].start if k + 1 < len(kept) else None
        if following is None:
            edits.append(Edit(item.end, len(text), tail))
        else:
            edits.append(Edit(item.end, following, sep))
    return edits
