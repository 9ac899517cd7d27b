"""Every rule, by code, and every per-report check, in run order: gathered from the
`RULES` and `CHECKS` of the rule modules.

This is the one list of finding codes. The code lists (which codes a spec may name as
smells, which are always errors), the default smells, the fixer lookup (`fix_for`), the
engine's per-report checks (`REPORT_CHECKS`) and the documentation catalog
(`check/catalog.py`) are all derived from it. Adding a rule is an entry in its module's
`RULES` (and its check in `CHECKS`) and a `## CODE` section in the module's `.md` file.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING

from citelens.check.finding import Finding
from citelens.check.rule import ReportCheck, Rule

if TYPE_CHECKING:
    from citelens.check.fix_context import FixContext
    from citelens.source.edits import Fix

from citelens.check.rules import (
    coverage,
    documents,
    length,
    metadata,
    references,
    schema,
    sentences,
    source,
    support,
)

#: the rule modules, in the order the rules run (and the documentation files are read)
RULE_MODULES: tuple[ModuleType, ...] = (
    source,
    schema,
    sentences,
    references,
    metadata,
    length,
    coverage,
    documents,
    support,
)
MODULES = tuple(m.__name__.rsplit(".", 1)[-1] for m in RULE_MODULES)


def _gather() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for module, name in zip(RULE_MODULES, MODULES, strict=True):
        for rule in module.RULES:
            if rule.code in rules:
                raise ValueError(f"{rule.code} is declared in both {rules[rule.code].module} and {name}")
            rules[rule.code] = replace(rule, module=name)
    return rules


#: code -> rule, in run order
RULES: dict[str, Rule] = _gather()
#: the per-report checks, in the order the engine runs them (by stage, then module)
REPORT_CHECKS: tuple[ReportCheck, ...] = tuple(
    sorted((c for m in RULE_MODULES for c in getattr(m, "CHECKS", ())), key=lambda c: c.stage)
)


def _codes(scope: str) -> tuple[str, ...]:
    return tuple(code for code, rule in RULES.items() if rule.scope == scope)


#: Per-report codes, then the cross-report ones, then the codes of problems below the spec
#: level (which a spec cannot demote). Spec files may name the first two as `smells`; a
#: `citelens.toml` may set the severity of any.
REPORT_CODES = _codes("report")
FILE_CODES = _codes("file")
STRUCTURE_CODES = _codes("structure")
#: the support verdicts (only with support on); each keeps its rule's default severity
SUPPORT_CODES = _codes("support")
FINDING_CODES = REPORT_CODES + FILE_CODES + STRUCTURE_CODES + SUPPORT_CODES
SMELL_CODES = REPORT_CODES + FILE_CODES
#: the smells of a spec that names none: the rules whose default severity is a warning
DEFAULT_SMELLS = tuple(code for code in SMELL_CODES if RULES[code].default_severity == "warning")


def fix_for(finding: Finding, ctx: FixContext) -> Fix | None:
    """The repair of one finding (None: no certain repair, or no fixer for its code).

    The finding is the one the engine reported: a report-level finding is read by its
    pointer and `data`; a `duplicate_key` finding by its span, so give it placed in the
    same text as `ctx.node`.
    """
    rule = RULES.get(finding.code)
    if rule is None or rule.fixer is None:
        return None
    try:
        return rule.fixer(finding, ctx)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None  # an odd shape we did not foresee: offer nothing rather than a wrong edit
