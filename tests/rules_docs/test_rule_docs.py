"""Every finding code has documentation beside its rule, and the documentation is honest:
its failing example, run through the engine under its spec, produces the code, and its
passing example does not (it produces nothing at all)."""

from __future__ import annotations

import json
import re

import pytest

from citelens.check.catalog import (
    MODULES,
    RULES_DIR,
    CatalogError,
    RuleDoc,
    all_rule_docs,
    docs_uri,
    parse_rule_file,
    rule_doc,
    summary,
)
from citelens.specs.model import FILE_CODES, FINDING_CODES, REPORT_CODES
from tests.helpers.rule_examples import example_spec, run_example

DOCS = {d.code: d for d in all_rule_docs()}


def test_every_finding_code_is_documented_exactly_once() -> None:
    assert sorted(DOCS) == sorted(FINDING_CODES)
    headings = []
    for module in MODULES:
        text = (RULES_DIR / f"{module}.md").read_text(encoding="utf-8")
        headings += re.findall(r"^## +([a-z_]+) *$", text, re.M)
    assert sorted(headings) == sorted(FINDING_CODES)


def test_docs_are_listed_in_finding_code_order() -> None:
    assert [d.code for d in all_rule_docs()] == list(FINDING_CODES)


@pytest.mark.parametrize("code", FINDING_CODES)
def test_doc_has_every_section(code: str) -> None:
    doc = rule_doc(code)
    assert doc.summary and "\n" not in doc.summary and len(doc.summary) <= 120
    assert doc.summary.endswith(".")
    for text in (doc.checks, doc.why, doc.fix):
        assert len(text.split()) >= 8, text
    for example in (doc.failing, doc.passing):
        assert example.spec and example.text.strip()
        if example is doc.failing and code == "json_syntax":
            continue
        for line in example.text.splitlines():  # complete reports, one per line
            assert isinstance(json.loads(line), dict)
    assert doc.path.name == f"{doc.module}.md"


def test_the_module_of_each_code_is_where_it_is_checked() -> None:
    expected = {"json_syntax": "source", "encoding": "source", "duplicate_key": "source", "schema": "schema"}
    documents = {"unknown_document", "documents_unchecked"}  # need document sources
    expected.update({c: "documents" if c in documents else "coverage" for c in FILE_CODES})
    for code, module in expected.items():
        assert DOCS[code].module == module
    for code in REPORT_CODES:
        source = (RULES_DIR / f"{DOCS[code].module}.py").read_text(encoding="utf-8")
        assert f'"{code}"' in source, f"{code} is not reported in {DOCS[code].module}.py"


@pytest.mark.parametrize("code", FINDING_CODES)
def test_failing_example_produces_the_code(code: str) -> None:
    doc = rule_doc(code)
    findings = [f for f in run_example(doc.failing, support=doc.module == "support") if f.code == code]
    assert findings, f"{code}: the failing example under {doc.failing.spec} does not produce it"
    for f in findings:
        assert f.end > f.start and f.message


@pytest.mark.parametrize("code", FINDING_CODES)
def test_passing_example_is_clean(code: str) -> None:
    doc = rule_doc(code)
    findings = run_example(doc.passing, support=doc.module == "support")
    assert code not in {f.code for f in findings}
    assert findings == [], f"{code}: the passing example is not clean: {[f.code for f in findings]}"


@pytest.mark.parametrize("code", FINDING_CODES)
def test_examples_differ_and_use_a_known_spec(code: str) -> None:
    doc = rule_doc(code)
    assert doc.failing.markdown != doc.passing.markdown
    assert example_spec(doc.failing).track == doc.failing.spec
    assert example_spec(doc.passing).track == doc.passing.spec


def test_summary_and_docs_uri() -> None:
    assert summary("length") == DOCS["length"].summary
    assert summary("no_such_code") == ""
    uri = docs_uri("citation_count")
    assert uri.startswith("file://") and uri.endswith("/check/rules/sentences.md#citation_count")
    assert (
        docs_uri("json_syntax", base="https://example.org/tree/v1/src/citelens/check/rules/")
        == "https://example.org/tree/v1/src/citelens/check/rules/source.md#json_syntax"
    )
    assert docs_uri("no_such_code") is None
    with pytest.raises(KeyError):
        rule_doc("no_such_code")


def test_every_link_names_the_file_its_code_is_documented_in() -> None:
    # the link comes from the rule's module, not from reading the Markdown
    for code, doc in DOCS.items():
        assert docs_uri(code) == f"{doc.path.resolve().as_uri()}#{code}"


def test_a_link_does_not_read_the_rule_files() -> None:
    import subprocess
    import sys

    probe = (
        "from citelens.check import catalog\n"
        "catalog.docs_uri('citation_count'); catalog.docs_uri('json_syntax')\n"
        "print(catalog._catalog.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_a_malformed_doc_file_is_a_clear_error() -> None:
    good = DOCS["length"].markdown
    with pytest.raises(CatalogError, match="length: missing or empty: Why it matters"):
        parse_rule_file(re.sub(r"### Why it matters\n.*?(?=### )", "", good, flags=re.S), "length")
    with pytest.raises(CatalogError, match="spec=ID"):
        parse_rule_file(good.replace("spec=ragtime26", "lang=x"), "length")
    with pytest.raises(CatalogError, match="documented twice"):
        parse_rule_file(good + "\n\n" + good, "length")


def test_headings_inside_examples_are_not_sections() -> None:
    doc = parse_rule_file(
        DOCS["schema"].markdown.replace(
            "### How to fix", "```text spec=x\n## not_a_code\n```\n\n### How to fix"
        ),
        "schema",
    )
    assert list(doc) == ["schema"]
    assert isinstance(doc["schema"], RuleDoc)
