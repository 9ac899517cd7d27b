"""Run a documentation example through the engine, as `citelens check` would."""

from __future__ import annotations

import json
from collections.abc import Iterable

from citelens.check.catalog import Example
from citelens.check.engine import Checker
from citelens.check.finding import Finding
from citelens.corpus import CorpusDocument, EmbeddedSource, Lookup
from citelens.corpus.shapes import detect_fields
from citelens.specs import builtin_specs
from citelens.specs.loader import parse_spec_text
from citelens.topics import parse_topics


def example_spec(example: Example):
    specs = dict(builtin_specs())
    if example.spec_file is not None:
        specs.update(parse_spec_text(example.spec_file, "example-spec.toml", base=builtin_specs()))
    return specs[example.spec]


class _PartialIndex(EmbeddedSource):
    """An index whose build was interrupted: it finds what it has and cannot say what it lacks."""

    def get_many(self, ids: Iterable[str]) -> Lookup:
        found = super().get_many(ids)
        return Lookup(
            documents={k: v for k, v in found.documents.items() if v is not None},
            unanswered={k: PARTIAL for k, v in found.documents.items() if v is None},
        )


PARTIAL = (
    "the index is still being built, or its build was interrupted (run `citelens index` again to finish it)"
)


def example_sources(example: Example) -> EmbeddedSource | None:
    """The example's corpus (a ```jsonl docs block) as a source, in memory."""
    if example.docs is None:
        return None
    records = [json.loads(line) for line in example.docs.splitlines() if line.strip()]
    fields = detect_fields(records)
    assert fields is not None, "the docs block is in no known corpus shape"
    docs = {
        str(r[fields.id]): CorpusDocument(str(r[fields.id]), str(r.get(fields.text, ""))) for r in records
    }
    if example.docs_partial:
        return _PartialIndex(docs, label="index example.sqlite")
    return EmbeddedSource(docs, label="corpus example.jsonl")


def run_example(example: Example, *, support: bool = False) -> list[Finding]:
    """With `support`, as `check --support` with support_unchecked turned on."""
    topics = parse_topics(example.topics, "example-topics") if example.topics else None
    run, overrides = None, {}
    if support:
        from citelens.support.run import SupportRun

        run, overrides = SupportRun(executor="serial"), {"support_unchecked": "info"}
    checker = Checker(
        example_spec(example), topics, overrides=overrides, sources=example_sources(example), support=run
    )
    return checker.check_bytes(example.data(), "example.jsonl").findings
