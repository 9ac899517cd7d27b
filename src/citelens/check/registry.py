"""Every rule, by code: gathered from the `RULES` of the rule modules, in run order.

This is the one list of finding codes. The code lists (which codes a spec may name as
smells, which are always errors), the default smells, the fixer lookup (`fix_for`) and
the documentation catalog (`check/catalog.py`) are all derived from it. Adding a rule is
an entry in its module's `RULES` and a `## CODE` section in the module's `.md` file.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

from citelens.check.rule import Rule
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
#: code -> fixer, for the codes that have one
FIXERS = {code: rule.fixer for code, rule in RULES.items() if rule.fixer is not None}
