"""What an editor shows about rules and specs: a rule's documentation link and summary,
the ids of the built-in specs, where a finding's related places are kept."""

from __future__ import annotations

from citelens.check.finding import RELATED_AT


def docs_uri(code: str, base: str | None = None) -> str | None:
    """The documentation link of a rule (the catalog loads every rule: on first use)."""
    from citelens.check.catalog import docs_uri as uri

    return uri(code, base)


def summary(code: str) -> str:
    """A rule's one-line summary."""
    from citelens.check.catalog import summary as line

    return line(code)


def load() -> None:
    """Read every rule's documentation now (its first use reads them all): a server can
    do it while it waits for its client, instead of in its first render."""
    from citelens.check.catalog import all_rule_docs

    all_rule_docs()


def spec_ids() -> list[str]:
    """The built-in track specs, sorted."""
    from citelens.specs import builtin_specs

    return sorted(builtin_specs())


__all__ = ["RELATED_AT", "docs_uri", "load", "spec_ids", "summary"]
