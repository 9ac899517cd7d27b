"""`Rule`: one finding code as a unit: its code, where it lives, how severe it is by
default, the check that reports it and the fixer that repairs it. `ReportCheck`: a
per-report check as the engine runs it, at its stage.

Each rule module (`check/rules/<module>.py`) declares its `RULES` and, when it has
per-report checks, its `CHECKS`; `check/registry.py` gathers both, and the engine's run
order, the code lists, the fixer table and the documentation catalog are derived from
there. The prose (summary, what it checks, examples) is the `## CODE` section of
`check/rules/<module>.md`, read on first use only (`check/catalog.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from citelens.check.finding import Finding, Severity
from citelens.source.edits import Fix

if TYPE_CHECKING:
    from citelens.check.fix_context import FixContext
    from citelens.check.view import ReportView

#: "report": found in one report; "file": across the reports of a file or against the
#: topics; "structure": below the spec level (reading the file, the JSON shape), always
#: an error whatever the spec says; "support": the support verdicts, only with support on,
#: at the rule's own default severity (specs do not list them).
Scope = Literal["report", "file", "structure", "support"]
Fixer = Callable[[Finding, "FixContext"], Fix | None]


@dataclass(frozen=True)
class Rule:
    code: str
    #: the function that reports it, or the functions (a tuple) when several do; None: the
    #: file reader (citelens.source). tests/check/test_registry.py runs each on its example
    check: Callable[..., Any] | tuple[Callable[..., Any], ...] | None
    fixer: Fixer | None = None
    default_severity: Severity = "error"  # under a spec that does not list its own smells
    scope: Scope = "report"
    module: str = ""  # filled in by the registry: check/rules/<module>.py and .md
    on_by_default: bool = True  # False: reported only when a severity override turns it on

    @property
    def checks(self) -> tuple[Callable[..., Any], ...]:
        """The functions that report the code (none for the file reader's codes)."""
        if self.check is None:
            return ()
        return self.check if isinstance(self.check, tuple) else (self.check,)


#: the stages of the per-report checks, in the order autojudge-base applies them; a
#: module's `CHECKS` name theirs, and checks of one stage run in the modules' order
SCHEMA, SHAPES, SCORES, EMPTY_ANSWER, METADATA, SENTENCES, REFERENCES, LENGTH = range(10, 90, 10)


@dataclass(frozen=True)
class ReportCheck:
    """One per-report check: `run(view)` adds its findings to the view."""

    run: Callable[[ReportView], object]
    stage: int  # lower stages run first (see the constants above)
    needs_spec: bool = True  # False: also runs without a spec (the structural checks)
    gate: bool = False  # `run` returns False to stop the later stages (no sentences to check)
