"""`fix_for` computes one finding's fix on demand: the same fix the whole-file pass
(`citelens check --fix`) attaches to it; `fix_all` applies them like `--fix`."""

from __future__ import annotations

import pytest

from citelens.check import Checker
from citelens.fixes.apply import fix_text
from citelens.session import Workspace
from citelens.specs import get_spec
from citelens.topics import parse_topics
from tests.helpers.session_runs import generated

CASES = [
    (spec, seed) for spec in ("rag24", "rag25", "ragtime25", "rag26", "dragun25", "kiddie") for seed in (1, 2)
]


@pytest.mark.parametrize("spec,seed", CASES)
def test_fix_for_equals_the_fix_the_whole_file_pass_attaches(tmp_path, spec, seed):
    text, topics_text = generated(spec, 30, seed)
    (tmp_path / "topics.jsonl").write_text(topics_text, encoding="utf-8")
    ws = Workspace(cli={"spec": spec, "topics": str(tmp_path / "topics.jsonl")})
    doc = ws.open(tmp_path / "run.jsonl", text)
    whole = Checker(get_spec(spec), parse_topics(topics_text), fixes=True).check_text(text)
    assert [(f.code, f.start, f.end) for f in doc.result.findings] == [
        (f.code, f.start, f.end) for f in whole.findings
    ]
    fixed = 0
    for finding, attached in zip(doc.result.findings, whole.findings):
        assert finding.fix is None  # the editor's check computes no fixes up front
        assert doc.fix_for(finding) == attached.fix
        fixed += attached.fix is not None
    assert fixed  # the generated faults include fixable ones


def test_fix_all_of_one_code_fixes_only_that_code():
    text, _ = generated("rag25", 40, 3)
    doc = Workspace(cli={"spec": "rag25"}).open("untitled:r", text)
    codes = {f.code for f in doc.result.findings if doc.fix_for(f) is not None}
    code = sorted(codes)[0]
    outcome = doc.fix_all(code)
    assert outcome.changed and {c for c, _ in outcome.applied} == {code}
    everything = fix_text(text, Checker(get_spec("rag25"), fixes=True))
    assert doc.fix_all().text == everything.text
    assert doc.text == text  # the document itself is not changed
