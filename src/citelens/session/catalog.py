"""What an editor shows about rules and specs: a rule's documentation link and summary,
the ids of the built-in specs, where a finding's related places are kept."""

from __future__ import annotations

from citelens.check.catalog import docs_uri, summary
from citelens.check.finding import RELATED_AT


def spec_ids() -> list[str]:
    """The built-in track specs, sorted."""
    from citelens.specs import builtin_specs

    return sorted(builtin_specs())


__all__ = ["RELATED_AT", "docs_uri", "spec_ids", "summary"]
