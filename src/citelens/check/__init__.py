"""The rule engine: report values and files in, positioned findings out."""

from citelens.check.engine import Checker, Policy, check_report, run_rules
from citelens.check.finding import Edit, Finding, Fix, Target
from citelens.check.result import FileResult

__all__ = ["Checker", "Edit", "FileResult", "Finding", "Fix", "Policy", "Target", "check_report", "run_rules"]
