"""What the file-level rules of an open document keep across its edits (see
`Checker.file_findings`): a one-character edit of a 10,000-report run changes no report's
facts, so the cross-report findings are the same, and the thousands of them that sit in
reports that did not move keep their placed objects (and so the JSON made of them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citelens.check.finding import Finding, Target
from citelens.check.rules.coverage import ReportFacts
from citelens.source.run_text import Item

#: the starts of a placed finding's reports, and their decoded values
Places = tuple[tuple[int, ...], tuple[object, ...]]


@dataclass
class FileLevelCache:
    """What `Checker.file_findings` keeps across calls for one open document."""

    #: the facts the cross-report findings were found from, and those findings (unplaced,
    #: severities applied) with the report each goes in
    facts: list[ReportFacts] = field(default_factory=list)
    coverage: list[tuple[int | None, Finding]] = field(default_factory=list)
    #: where findings go inside reports: (id of the report's value, pointer, target) ->
    #: (that value, start, end in the report)
    spans: dict[tuple[int, str, Target], tuple[object, int, int]] = field(default_factory=dict)
    #: id(unplaced finding) -> (it, the places of its reports, the placed finding)
    placed: dict[int, tuple[Finding, Places, Finding]] = field(default_factory=dict)

    def same_facts(self, facts: list[ReportFacts]) -> bool:
        kept = self.facts
        return len(kept) == len(facts) and all(a is b or a == b for a, b in zip(kept, facts))


def where_placed(items: list[Item], index: int, related: Any) -> Places:
    """The starts and decoded values of a file-level finding's report and of the reports
    its related places are in: while they are the same (the values the same objects, so
    the reports' texts unchanged), so is the placed finding."""
    item = items[index]
    if not related:
        return (item.start,), (item.value,)
    others = [items[r.report] for r in related if r.report is not None and 0 <= r.report < len(items)]
    return (item.start, *(o.start for o in others)), (item.value, *(o.value for o in others))


def same_places(a: Places, b: Places) -> bool:
    return a[0] == b[0] and all(x is y for x, y in zip(a[1], b[1]))
