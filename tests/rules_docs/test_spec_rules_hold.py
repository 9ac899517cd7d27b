"""What `citelens specs ID` promises holds in the engine: codes it calls "never reported"
under a spec do not occur there, and the rules it lists are enforced."""

from __future__ import annotations

import pytest

from citelens.check.catalog import all_rule_docs
from citelens.check.engine import Checker
from citelens.cli.specs import never_reported
from citelens.specs import builtin_specs
from citelens.topics import parse_topics

EXAMPLES = [ex for doc in all_rule_docs() for ex in (doc.failing, doc.passing)]


@pytest.mark.parametrize("spec_id", sorted(builtin_specs()))
def test_codes_called_never_reported_do_not_occur(spec_id: str) -> None:
    spec = builtin_specs()[spec_id]
    off = set(never_reported(spec))
    for ex in EXAMPLES:
        topics = parse_topics(ex.topics) if ex.topics else None
        found = {f.code for f in Checker(spec, topics).check_bytes(ex.data()).findings}
        assert not found & off, f"{spec_id}: {sorted(found & off)} on the {ex.spec} example {ex.text[:60]}"


RAGTIME_NO_REFS = (
    '{"metadata":{"team_id":"t","topic_id":"2000","run_id":"my-run","task":"english"},'
    '"responses":[{"text":"Kazakhstan adopted a ban on e-cigarettes.",'
    '"citations":{"5f91a162-7a1e-4e5e-af0e-6b1bab774964_374756147":0.5}}]}'
)
RAGTIME_NO_CITATIONS_KEY = (
    '{"metadata":{"team_id":"t","topic_id":"2000","run_id":"my-run","run_desc":"d"},'
    '"responses":[{"text":"Kazakhstan adopted a ban on e-cigarettes."}],"references":[]}'
)


@pytest.mark.parametrize("spec_id", ["ragtime25-nist", "ragtime26-nist"])
def test_nist_profiles_require_every_citations_key(spec_id: str) -> None:
    findings = Checker(builtin_specs()[spec_id]).check_text(RAGTIME_NO_CITATIONS_KEY).findings
    on_sentence = [f for f in findings if f.pointer.startswith("/responses/0") and f.severity == "error"]
    assert on_sentence, "a sentence without a `citations` key is an error in the official RAGTIME check"


def test_the_citations_key_is_optional_elsewhere() -> None:
    findings = Checker(builtin_specs()["ragtime26"]).check_text(RAGTIME_NO_CITATIONS_KEY).findings
    assert not [f for f in findings if f.pointer.startswith("/responses/0")]


def test_a_missing_references_key_is_reported_once() -> None:
    findings = Checker(builtin_specs()["ragtime25-nist"]).check_text(RAGTIME_NO_REFS).findings
    assert [f.code for f in findings].count("references_missing") == 1


def test_nist_profile_makes_a_missing_references_key_an_error() -> None:
    findings = Checker(builtin_specs()["ragtime25-nist"]).check_text(RAGTIME_NO_REFS).findings
    assert {f.severity for f in findings if f.code == "references_missing"} == {"error"}
