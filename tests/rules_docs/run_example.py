"""Run a documentation example through the engine, as `citelens check` would."""

from __future__ import annotations

from citelens.check.catalog import Example
from citelens.check.engine import Checker
from citelens.check.finding import Finding
from citelens.specs import builtin_specs
from citelens.specs.loader import parse_spec_text
from citelens.topics import parse_topics


def example_spec(example: Example):
    specs = dict(builtin_specs())
    if example.spec_file is not None:
        specs.update(parse_spec_text(example.spec_file, "example-spec.toml", base=builtin_specs()))
    return specs[example.spec]


def run_example(example: Example, *, support: bool = False) -> list[Finding]:
    """With `support`, as `check --support` with support_unchecked turned on."""
    topics = parse_topics(example.topics, "example-topics") if example.topics else None
    run, overrides = None, {}
    if support:
        from citelens.support.run import SupportRun

        run, overrides = SupportRun(executor="serial"), {"support_unchecked": "info"}
    checker = Checker(example_spec(example), topics, overrides=overrides, support=run)
    return checker.check_bytes(example.data(), "example.jsonl").findings
