"""Loading the engine ahead of its first use, for a front end that answers before it
needs the engine (the language server's `initialize`)."""

from __future__ import annotations


def load_engine() -> None:
    """Import every rule and the document model, and read the built-in spec tables
    (cached for the process): what the first check would otherwise load."""
    import citelens.check.engine
    import citelens.session.open_document  # noqa: F401
    from citelens.specs.loader import builtin_specs

    builtin_specs()
