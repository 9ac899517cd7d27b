"""The rule engine: report values and files in, positioned findings out."""

from citelens.check.engine import Checker, Policy, check_report, run_rules
from citelens.check.finding import Edit, Finding, Fix, Target
from citelens.check.fix_context import FixContext
from citelens.check.registry import RULES, fix_for
from citelens.check.result import FileResult
from citelens.check.rule import Rule

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
