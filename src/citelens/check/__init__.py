"""The rule engine: report values and files in, positioned findings out.

The names below load on first use: importing a light module of this package (the spec
table's `SpecError`, the finding types) must not load every rule, so a front end that
only needs those starts fast (the language server answers `initialize` before the
engine is loaded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export

if TYPE_CHECKING:
    from citelens.check.engine import Checker, Policy, check_report, run_rules
    from citelens.check.finding import Edit, Finding, Fix, Target
    from citelens.check.fix_context import FixContext
    from citelens.check.registry import RULES, fix_for
    from citelens.check.result import FileResult
    from citelens.check.rule import Rule

_EXPORTS = {
    "Checker": "citelens.check.engine",
    "Policy": "citelens.check.engine",
    "check_report": "citelens.check.engine",
    "run_rules": "citelens.check.engine",
    "Edit": "citelens.check.finding",
    "Finding": "citelens.check.finding",
    "Fix": "citelens.check.finding",
    "Target": "citelens.check.finding",
    "FixContext": "citelens.check.fix_context",
    "RULES": "citelens.check.registry",
    "fix_for": "citelens.check.registry",
    "FileResult": "citelens.check.result",
    "Rule": "citelens.check.rule",
}

__all__ = [
    "RULES",
    "Checker",
    "Edit",
    "FileResult",
    "Finding",
    "Fix",
    "FixContext",
    "Policy",
    "Rule",
    "Target",
    "check_report",
    "fix_for",
    "run_rules",
]


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _EXPORTS, name)
