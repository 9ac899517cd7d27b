"""Rules across the reports of one file (duplicate_topics, missing_topics,
run_consistency) and against the topics file (new_topics, narrative: an exact copy of
the topic text)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citelens.check.finding import RELATED, Finding, Related, Target
from citelens.check.fix_context import FixContext
from citelens.check.rule import Rule
from citelens.source.edits import Fix, add_member, fix, replace_value
from citelens.source.json_nodes import pointer_join

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec
    from citelens.check.view import ReportView


@dataclass(slots=True)
class ReportFacts:
    """What a report contributes to the file-level rules (cheap to cache per line)."""

    index: int
    topic_id: str | None
    topic_ptr: str = ""  # pointer to the topic id value inside the report
    meta_ptr: str = "/metadata"
    narrative: Any = None
    has_narrative: bool = False
    values: dict[str, Any] = field(default_factory=dict)  # same_on_every_line keys present
    # (doc id, pointer, target) of each cited/referenced id, and the ids the report carries
    # itself: filled only when document sources are configured (rules/documents.py)
    doc_refs: tuple[tuple[str, str, str], ...] = ()
    embedded: frozenset[str] = frozenset()


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:12])
    return shown + (f", ... (+{len(ids) - 12} more)" if len(ids) > 12 else "")


Add = Callable[[int | None, Finding], None]  # (report index or None for the file, finding)


def check_coverage(
    facts: list[ReportFacts], spec: TrackSpec | None, topics: Mapping[str, Any] | None, add: Add
) -> None:
    first_of: dict[str, int] = {}
    first_ptr: dict[str, str] = {}
    for f in facts:
        if f.topic_id is None:
            continue
        if f.topic_id in first_of:
            first = first_of[f.topic_id]
            add(
                f.index,
                Finding(
                    "duplicate_topics",
                    "error",
                    f"topic {f.topic_id!r} already has a report (report "
                    f"{first + 1} of this file); submit one report per topic",
                    f.topic_ptr,
                    topic_id=f.topic_id,
                    data={
                        "first": first,
                        RELATED: (
                            Related(
                                f"the first report of topic {f.topic_id!r} (report {first + 1})",
                                first_ptr[f.topic_id],
                                report=first,
                            ),
                        ),
                    },
                ),
            )
        else:
            first_of[f.topic_id] = f.index
            first_ptr[f.topic_id] = f.topic_ptr
    if spec is not None and spec.same_on_every_line and facts:
        expected: dict[str, tuple[Any, int]] = {}
        for f in facts:
            for key, value in f.values.items():
                if key not in expected:
                    expected[key] = (value, f.index)
                elif value != expected[key][0]:
                    first_value, at = expected[key]
                    add(
                        f.index,
                        Finding(
                            "run_consistency",
                            "error",
                            f"{key} is {value!r} here but {first_value!r} in report {at + 1}; "
                            "one run file carries one run",
                            f"{f.meta_ptr}/{key}",
                            topic_id=f.topic_id,
                            data={"key": key, "expected": first_value},
                        ),
                    )
    if not topics:
        return
    missing = [t for t in topics if t not in first_of]
    if missing:
        add(
            None,
            Finding(
                "missing_topics",
                "error",
                f"{len(missing)} topic(s) in the topics file have no report: {_ids(missing)}",
                data={"missing": missing},
            ),
        )


def topic_findings(f: ReportFacts, spec: TrackSpec | None, topics: Mapping[str, Any]) -> list[Finding]:
    """new_topics and narrative: cross-checks against the topics file that need only this
    report (so they run, and are cached, with the report's other rules)."""
    if f.topic_id is None:
        return []
    topic = topics.get(f.topic_id)
    if topic is None:
        return [
            Finding(
                "new_topics",
                "error",
                f"topic {f.topic_id!r} is not in the topics file",
                f.topic_ptr,
                topic_id=f.topic_id,
            )
        ]
    if (
        spec is None
        or not spec.require_exact_narrative
        or getattr(topic, "text", None) is None
        or f.narrative == topic.text
    ):
        return []
    name = spec.narrative_field
    if f.has_narrative:
        msg, target = f"{name} is not an exact copy of the text of topic {f.topic_id!r}", Target.VALUE
    else:
        msg, target = f"{name} is missing; copy the exact text of topic {f.topic_id!r} here", Target.MISSING
    return [
        Finding(
            "narrative",
            "error",
            msg,
            f"{f.meta_ptr}/{name}",
            target,
            topic_id=f.topic_id,
            data={"expected": topic.text},
        )
    ]


def report_facts(index: int, view: ReportView) -> ReportFacts:
    spec = view.spec
    md = view.meta
    tid_key = spec.topic_id_field if spec else "topic_id"
    if md.get(tid_key) is None:  # the id under one of its other names
        tid_key = next((k for k in ("topic_id", "narrative_id") if md.get(k) is not None), tid_key)
    topic_ptr = (
        f"{view.meta_ptr}/{tid_key}"
        if "/" not in tid_key and "~" not in tid_key
        else view.meta_ptr + pointer_join(tid_key)
    )
    narrative_field = spec.narrative_field if spec else "narrative"
    facts = ReportFacts(
        index, view.topic_id, topic_ptr, view.meta_ptr, md.get(narrative_field), narrative_field in md
    )
    if spec is not None and spec.same_on_every_line:
        facts.values = {k: md[k] for k in spec.same_on_every_line if k in md}
    return facts


def fix_narrative(f: Finding, ctx: FixContext) -> Fix | None:
    """Copy the topic's exact text into the report."""
    expected = f.data.get("expected")
    spec = ctx.view.spec
    if expected is None or spec is None:
        return None
    node = ctx.at(f.pointer)
    if node is not None:
        return fix("Copy the exact topic text", [replace_value(node, expected)])
    md = ctx.at(ctx.view.meta_ptr) if ctx.view.meta_ptr else ctx.node
    if md is None or md.kind != "object":
        return None
    return fix("Copy the exact topic text", [add_member(md, spec.narrative_field, expected)])


RULES = (
    Rule("duplicate_topics", check_coverage, default_severity="warning", scope="file"),
    Rule("missing_topics", check_coverage, scope="file"),
    Rule("new_topics", topic_findings, scope="file"),
    Rule("narrative", topic_findings, fix_narrative, scope="file"),
    Rule("run_consistency", check_coverage, scope="file"),
)
