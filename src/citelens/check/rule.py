"""`Rule`: one finding code as a unit: its code, where it lives, how severe it is by
default, the check that reports it and the fixer that repairs it.

Each rule module (`check/rules/<module>.py`) declares its `RULES`; `check/registry.py`
gathers them, and the code lists, the fixer table and the documentation catalog are
derived from there. The prose (summary, what it checks, examples) is the `## CODE`
section of `check/rules/<module>.md`, read on first use only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from citelens.check.finding import Finding, Severity
from citelens.source.edits import Fix

if TYPE_CHECKING:
    from citelens.check.catalog import RuleDoc
    from citelens.check.fix_context import FixContext

#: "report": found in one report; "file": across the reports of a file or against the
#: topics; "structure": below the spec level (reading the file, the JSON shape), always
#: an error whatever the spec says; "support": the support verdicts, only with support on,
#: at the rule's own default severity (specs do not list them).
Scope = Literal["report", "file", "structure", "support"]
Fixer = Callable[[Finding, "FixContext"], Fix | None]


@dataclass(frozen=True)
class Rule:
    code: str
    check: Callable[..., Any] | None  # the function that reports it (None: the file reader)
    fixer: Fixer | None = None
    default_severity: Severity = "error"  # under a spec that does not list its own smells
    scope: Scope = "report"
    module: str = ""  # filled in by the registry: check/rules/<module>.py and .md
    on_by_default: bool = True  # False: reported only when a severity override turns it on

    @property
    def summary(self) -> str:
        """The one-line summary from the rule's documentation."""
        from citelens.check.catalog import summary

        return summary(self.code)

    @property
    def doc(self) -> RuleDoc:
        """The rule's documentation section (`## CODE` in `check/rules/<module>.md`)."""
        from citelens.check.catalog import rule_doc

        return rule_doc(self.code)
