"""Loading the engine ahead of its first use, for a front end that answers before it
needs the engine (the language server's `initialize`)."""

from __future__ import annotations

import importlib

#: what an editor's requests on an open run load on first use (hover, code actions,
#: outline, completion): imported once the first diagnostics are out, so the first hover
#: does not import while a big file is read in another thread (each import asks the file
#: system many times, and each of those calls gives the interpreter to that thread)
FEATURE_MODULES = (
    "citelens.session.hover_facts",
    "citelens.session.cited",
    "citelens.session.verdict_view",
    "citelens.specs.field_requirements",
    "citelens.session.finding_match",
    "citelens.session.spec_choice",
    "citelens.session.outline",
    "citelens.session.completion",
)


def load_engine() -> None:
    """Import every rule and the document model, and read the built-in spec tables
    (cached for the process): what the first check would otherwise load."""
    import citelens.check.engine
    import citelens.session.open_document  # noqa: F401
    from citelens.specs.loader import builtin_specs

    builtin_specs()


def load_features() -> None:
    """Import what the editor features use (`FEATURE_MODULES`) and read the rule catalog
    (the hovers' summaries and links)."""
    for name in FEATURE_MODULES:
        importlib.import_module(name)
    from citelens.session.catalog import summary

    summary("json_syntax")
