"""The file-level findings of a file (text problems, a syntax error of the whole text,
the cross-report rules), with what an open document keeps of them across its edits.

A one-character edit of a 10,000-report run changes no report's facts, so the
cross-report findings are the same; and the thousands of them in reports whose text did
not change stay where they were inside their reports. So they are kept relative to their
report (related places in other reports relative to those reports: `RELATED_IN`), each
report's as one list that is the same object while its reports' texts are unchanged;
the session merges it with the report's own findings and the server reuses its JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import is_
from typing import Any

from citelens.check.finding import RELATED, RELATED_IN, Finding, Target, finding_order
from citelens.check.rules.coverage import ReportFacts
from citelens.source.json_locate import Locator
from citelens.source.run_text import Item

#: (report index or None for the whole file, finding), as a file-level rule adds them
Added = list[tuple[int | None, Finding]]
#: (text, item, pointer, target, locator) -> the span of a pointer's token in the file
SpanOf = Callable[[str, Item, str, Target, Locator], tuple[int, int]]


@dataclass
class FileLevel:
    """`whole`: placed in the file, in file order; `reports[k]`: report k's, relative to
    its start, in file order; `links[k]`: the other reports those relate to."""

    whole: list[Finding]
    reports: dict[int, list[Finding]]
    links: dict[int, tuple[int, ...]]


@dataclass
class FileLevelCache:
    """What `Checker.file_findings` keeps across calls for one open document."""

    #: the facts the cross-report findings were found from, and those findings (unplaced,
    #: severities applied) per report, with the other reports each report's relate to
    facts: list[ReportFacts] | None = None  # None: nothing found yet
    whole: list[Finding] = field(default_factory=list)
    groups: dict[int, list[Finding]] = field(default_factory=dict)
    links: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: where findings go inside reports: (id of the report's value, pointer, target) ->
    #: (that value, start, end in the report)
    spans: dict[tuple[int, str, Target], tuple[object, int, int]] = field(default_factory=dict)
    #: report -> (its group, the decoded values of it and its linked reports, its findings
    #: relative to it)
    relative: dict[int, tuple[list[Finding], tuple[object, ...], list[Finding]]] = field(default_factory=dict)

    def same_facts(self, facts: list[ReportFacts]) -> bool:
        kept = self.facts
        if kept is None or len(kept) != len(facts):
            return False
        return kept == facts  # each pair: the same object, or equal (a list compares so, in C)

    def found(self, facts: list[ReportFacts], added: Added) -> None:
        """Keep what the cross-report rules found from `facts`."""
        self.facts, self.relative = list(facts), {}
        self.whole, self.groups, self.links = grouped(added)


def grouped(added: Added) -> tuple[list[Finding], dict[int, list[Finding]], dict[int, tuple[int, ...]]]:
    """Findings about the whole file, each report's, and the other reports each report's
    relate to."""
    whole: list[Finding] = []
    groups: dict[int, list[Finding]] = {}
    links: dict[int, tuple[int, ...]] = {}
    for index, f in added:
        if index is None:
            whole.append(f.with_span(0, 1))
            continue
        groups.setdefault(index, []).append(f)
        related = f.data.get(RELATED) if f.data else None
        if related:
            others = tuple(r.report for r in related if r.report is not None and r.report != index)
            if others:
                links[index] = tuple(dict.fromkeys(links.get(index, ()) + others))
    return whole, groups, links


def relative_findings(
    text: str, items: list[Item], kept: FileLevelCache, groups: dict[int, list[Finding]], span_of: SpanOf
) -> dict[int, list[Finding]]:
    """Each report's file-level findings relative to it, in file order (the kept list
    while the texts of it and its linked reports are unchanged, or while they are the
    same findings)."""
    spans, done = kept.spans, kept.relative
    locators: dict[int, Locator] = {}  # a report with several file-level findings is read once

    def span_in(k: int, pointer: str, target: Target) -> tuple[int, int]:
        item = items[k]
        value = item.value  # None for a report not decoded yet (`read_source(lazy=True)`)
        key = (id(value), pointer, target)
        hit = spans.get(key) if value is not None else None
        if hit is not None and hit[0] is value:
            return hit[1], hit[2]
        locator = locators.get(k)
        if locator is None:
            locator = locators[k] = Locator(text, item.start, unique_keys=True)
        start, end = span_of(text, item, pointer, target, locator)
        if value is not None:
            spans[key] = (value, start - item.start, end - item.start)
        return start - item.start, end - item.start

    def relative(f: Finding, k: int) -> Finding:
        start, end = span_in(k, f.pointer, f.target)
        related = f.data.get(RELATED) if f.data else None
        if not related:
            return f.with_span(start, end)  # no fixer exists for these codes
        places = []
        for r in related:
            at = k if r.report is None else r.report
            if 0 <= at < len(items):
                places.append((r.message, at, *span_in(at, r.pointer, r.target)))
        out = f.with_span(start, end)
        return Finding(
            out.code, out.severity, out.message, out.pointer, out.target, out.start, out.end,
            out.topic_id, None, {**f.data, RELATED_IN: tuple(places)},
        )  # fmt: skip

    out: dict[int, list[Finding]] = {}
    links = kept.links
    for k, group in groups.items():
        values: tuple[Any, ...] = (
            items[k].value,
            *(items[r].value for r in links.get(k, ()) if r < len(items)),
        )
        hit = done.get(k)
        if hit is not None and hit[0] is group and None not in values and all(map(is_, hit[1], values)):
            out[k] = hit[2]
            continue
        found = sorted((relative(f, k) for f in group), key=finding_order)
        if hit is not None and _same(found, hit[2]):
            # the same findings (an edit of a linked report left their places in it as they
            # were): the kept list, so the session's merge and the server's JSON of this
            # report are reused too (a generated 10,000-report run has 160 duplicates of
            # its first report's topic, each related to it)
            found = hit[2]
        done[k] = (group, values, found)
        out[k] = found
    if len(spans) > 4 * len(items) + 1000:
        spans.clear()  # places of reports that no longer exist
    return out


def _same(found: list[Finding], kept: list[Finding]) -> bool:
    """The same findings, their `data` (related places) included: a finding's equality
    leaves `data` out."""
    return len(found) == len(kept) and all(f == g and f.data == g.data for f, g in zip(found, kept))
