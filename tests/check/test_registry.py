"""Rules are units: one registry entry per code, from which the code lists, the default
smells, the fixer lookup and the documentation catalog all follow."""

from __future__ import annotations

import inspect
from dataclasses import replace
from pathlib import Path

import pytest

from citelens.check import Checker, FixContext, fix_for
from citelens.check.catalog import rule_doc, summary
from citelens.check.engine import run_rules
from citelens.check.registry import (
    DEFAULT_SMELLS,
    FINDING_CODES,
    MODULES,
    REPORT_CHECKS,
    RULE_MODULES,
    RULES,
    STRUCTURE_CODES,
)
from citelens.source.run_text import read_source
from citelens.specs import get_spec
from citelens.specs.loader import parse_spec_text
from tests.helpers.report_factory import line, report

RULES_DIR = Path(inspect.getfile(RULE_MODULES[0])).parent


def test_every_code_is_one_rule_in_its_module_and_documented_there() -> None:
    assert list(RULES) == [code for module in RULE_MODULES for code in (r.code for r in module.RULES)]
    assert set(FINDING_CODES) == set(RULES)
    for code, rule in RULES.items():
        assert rule.module in MODULES
        assert f"\n## {code}\n" in (RULES_DIR / f"{rule.module}.md").read_text(encoding="utf-8")
        assert summary(code) == rule_doc(code).summary
        for check in rule.checks:  # none: found while reading the file (citelens.source)
            assert check.__module__ == f"citelens.check.rules.{rule.module}", code
            if rule.scope in ("report", "structure"):
                # a per-report rule's check is one the engine runs: in its module's CHECKS
                assert check in [c.run for c in REPORT_CHECKS], code
        if rule.fixer is not None:  # beside its rule, or a repair several rules share
            home = rule.fixer.__module__.rsplit(".", 1)[-1].removesuffix("_fixes")
            assert home in (rule.module, "fix_context"), (code, home)


def test_the_lists_follow_from_the_entries() -> None:
    assert (
        tuple(c for c, r in RULES.items() if r.default_severity == "warning" and r.scope != "support")
        == DEFAULT_SMELLS
    )  # the support codes keep their own severity under every spec
    assert (
        parse_spec_text(
            '[specs.bare]\ntrack = "x"\ntask = "generation"\nsentence_type = ["rag24"]\n'
            'sentences_key = "answer"\ntopic_id_field = "narrative_id"\nmandatory_metadata = []\n',
            "b.toml",
        )["bare"].smells
        == DEFAULT_SMELLS
    )  # a spec that names no smells gets the rules' defaults
    assert tuple(c for c, r in RULES.items() if r.scope == "structure") == STRUCTURE_CODES


def test_a_code_declared_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from citelens.check import registry
    from citelens.check.rules import length

    monkeypatch.setattr(length, "RULES", (*length.RULES, replace(RULES["blank_sentence"], module="")))
    with pytest.raises(ValueError, match="blank_sentence is declared in both sentences and length"):
        registry._gather()


def test_blank_sentence_and_reference_index_say_the_same_with_or_without_a_spec() -> None:
    bad = report(answer=[{"text": " ", "citations": [0]}, {"text": "Two.", "citations": [7]}])
    messages = {}
    for spec in (get_spec("rag26"), None):
        found = Checker(spec).check_text(line(bad)).findings
        messages[spec is None] = sorted(
            (f.code, f.message) for f in found if f.code in ("blank_sentence", "reference_index")
        )
    assert messages[True] == messages[False]
    assert [code for code, _ in messages[True]] == ["blank_sentence", "reference_index"]
    assert "drop the sentence or write it" in messages[True][0][1]
    assert "valid indices are 0..1" in messages[True][1][1]


def test_fix_for_one_finding_is_the_fix_the_whole_file_pass_attaches() -> None:
    """What an editor asks for one diagnostic equals what `--fix` would apply."""
    lines = [
        report(answer=[{"text": " ", "citations": [0]}, {"text": "Two.", "citations": [1, 1, 9]}]),
        report(references=["shard_00001_1", "shard_00001_1", "shard_00002_2", "shard_00003_3"]),
        report(
            metadata={"team_id": "t", "narrative_id": 12, "narrative": "N", "run_id": "r", "run_desc": "d"}
        ),
    ]
    text = "\n".join(line(v) for v in lines) + '\n{"metadata": {}, "metadata": {"team_id": "t"}}\n'
    spec = get_spec("rag26")
    result = Checker(spec, fixes=True).check_text(text)
    plain = Checker(spec).check_text(text).findings
    assert [f.fix for f in result.findings if f.fix] and len(plain) == len(result.findings)
    items = [item.decoded(text) for item in read_source(text).items]
    for finding, attached in zip(plain, result.findings, strict=True):
        item = next(i for i in items if i.start <= finding.start < i.end)  # the report it is in
        ctx = FixContext(item.node(text), run_rules(item.value, spec))
        assert fix_for(finding, ctx) == attached.fix, finding.code


@pytest.mark.parametrize("code", [c for c, r in RULES.items() if r.scope == "report"])
def test_a_report_rules_check_alone_reports_it_on_its_failing_example(code: str) -> None:
    """`Rule.check` is true: the checks it names, run alone on the documented failing
    example, report the code."""
    import json

    from citelens.check.view import ReportView
    from citelens.topics import parse_topics
    from tests.helpers.rule_examples import example_spec

    example = rule_doc(code).failing
    spec = example_spec(example)
    topics = parse_topics(example.topics, "example-topics") if example.topics else {}
    reported = set()
    for text in example.text.splitlines():
        view = ReportView.build(json.loads(text), spec, None)
        view.request = topics.get(view.topic_id) if view.topic_id is not None else None
        for check in RULES[code].checks:
            check(view)
        reported |= {f.code for f in view.findings}
    assert code in reported
