"""What a rule reports: a code, a severity, a message and the exact span it is about.

Findings are plain dataclasses (they are made in the hot path of `citelens check`). The
span is a half-open range of code-point offsets into the checked file's text; the CLI and
the server turn it into line/column only at their boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import Any, Literal, NamedTuple

from citelens.source.edits import Applicability, Edit, Fix

__all__ = [
    "RELATED",
    "RELATED_AT",
    "RELATED_IN",
    "SEVERITIES",
    "Applicability",
    "Edit",
    "Finding",
    "Fix",
    "Related",
    "RelatedSpan",
    "Severity",
    "Target",
]

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class Target(str, Enum):
    """Which token of the node named by a JSON pointer a finding sits on."""

    VALUE = "value"  # the value token: a bad doc id, an index, a score
    KEY = "key"  # the member's key token: a key that should not be there
    MISSING = "missing"  # the pointer names an absent member: put it on the parent's key


class Related(NamedTuple):
    """Another place a finding is about (the other report of a duplicate topic, the list
    an index points into), as a rule names it: a pointer into the finding's own report,
    or into report number `report` of the same file."""

    message: str
    pointer: str
    target: Target = Target.VALUE
    report: int | None = None


class RelatedSpan(NamedTuple):
    """A related place, located: code-point offsets into the file text."""

    message: str
    start: int
    end: int


#: `Finding.data` keys: the rule's related places, and where the engine located them
#: (offsets relative to the finding's start, so they move with it)
RELATED, RELATED_AT = "related", "related_at"
#: ... or, for a file-level finding kept relative to its report (`Checker.file_findings`),
#: (message, report, start, end) with offsets relative to that report's start: the places
#: stay right while the reports move apart (`check.result.placed_in_file` places them)
RELATED_IN = "related_in"


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    message: str
    pointer: str = ""  # RFC 6901 pointer into the report (or the file's root value)
    target: Target = Target.VALUE
    start: int = 0  # code-point offsets into the file text, end exclusive, never empty
    end: int = 0
    topic_id: str | None = None
    fix: Fix | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)  # rule facts a fixer may reuse

    @property
    def related(self) -> list[RelatedSpan]:
        """The related places the engine located for this finding (empty when none)."""
        at = self.data.get(RELATED_AT) if self.data else None
        if not at:
            return []
        return [RelatedSpan(message, self.start + ds, self.start + de) for message, ds, de in at]

    # built through the slots (`_copy`): dataclasses.replace is several times slower, and
    # these run once or twice per finding on a file with thousands of them
    def with_span(self, start: int, end: int) -> Finding:
        return _copy(self, self.severity, start, end if end > start else start + 1)

    def with_severity(self, severity: Severity) -> Finding:
        return _copy(self, severity, self.start, self.end)


_FIELDS = ("code", "severity", "message", "pointer", "target", "start", "end", "topic_id", "fix", "data")
_SET = {name: Finding.__dict__[name].__set__ for name in _FIELDS} if Finding.__slots__ == _FIELDS else {}


def placed(f: Finding, by: int) -> Finding:
    """`f` moved by `by`: an open document keeps each report's findings relative to the
    report and places thousands of them in the file when its whole result is read."""
    return _copy(f, f.severity, f.start + by, f.end + by)


def reported(
    code: str, message: str, pointer: str, target: Target, topic_id: str | None, data: dict[str, Any]
) -> Finding:
    """A rule's new finding (an error at no place yet: the engine places it and gives it
    the spec's severity): every finding of a check starts here."""
    return _built(code, "error", message, pointer, target, 0, 0, topic_id, None, data)


def _copy(f: Finding, severity: Severity, start: int, end: int) -> Finding:
    """`f` with another severity and span."""
    return _built(f.code, severity, f.message, f.pointer, f.target, start, end, f.topic_id, f.fix, f.data)


def _built(
    code: str,
    severity: Severity,
    message: str,
    pointer: str,
    target: Target,
    start: int,
    end: int,
    topic_id: str | None,
    fix: Fix | None,
    data: dict[str, Any],
) -> Finding:
    """A finding built through its slots, about twice as fast as the frozen dataclass's
    `__init__` (which sets each slot through one `object.__setattr__` call); the general
    path when the fields differ from `_FIELDS`."""
    if not _SET:
        return Finding(code, severity, message, pointer, target, start, end, topic_id, fix, data)
    g = _NEW(Finding)
    _S_CODE(g, code)
    _S_SEVERITY(g, severity)
    _S_MESSAGE(g, message)
    _S_POINTER(g, pointer)
    _S_TARGET(g, target)
    _S_START(g, start)
    _S_END(g, end)
    _S_TOPIC(g, topic_id)
    _S_FIX(g, fix)
    _S_DATA(g, data)
    return g


_NEW = object.__new__
if _SET:
    _S_CODE, _S_SEVERITY, _S_MESSAGE, _S_POINTER, _S_TARGET = (_SET[n] for n in _FIELDS[:5])
    _S_START, _S_END, _S_TOPIC, _S_FIX, _S_DATA = (_SET[n] for n in _FIELDS[5:])


#: the order of findings everywhere (a file's list, its merges, the editor's result):
#: place, then code, then message, so two findings at one place with one code (a
#: broken element and the text after the array's end) come in one order however the
#: list was made
finding_order = attrgetter("start", "end", "code", "message")
