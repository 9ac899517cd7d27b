"""The server assembled: every feature module's handlers registered on one
`CiteLensServer` (the only module that imports both `runtime/` and `features/`).

A new LSP feature is a module in `features/` with plain handler functions and a
`FEATURES` (or `COMMANDS`) list; add it to `MODULES` here.
"""

from __future__ import annotations

from types import ModuleType

from citelens_server.runtime.server import CiteLensServer


def feature_modules() -> list[ModuleType]:
    from citelens_server.features import (
        cited_documents,
        code_actions,
        commands,
        completion,
        hover,
        indexing,
        navigation,
        overview,
        symbols,
        sync,
    )
    from citelens_server.runtime import lifecycle

    return [
        *(lifecycle, sync, code_actions, hover, navigation, symbols, commands, cited_documents, indexing),
        *(overview, completion),
    ]


def create_server() -> CiteLensServer:
    from citelens_server.features import diagnostics, workspace_diagnostics

    server = CiteLensServer()
    for module in feature_modules():
        server.add_features(getattr(module, "FEATURES", ()))
        for name, handler in getattr(module, "COMMANDS", ()):
            server.command(name)(handler)
    server.pull_features = [*diagnostics.PULL_FEATURES, *workspace_diagnostics.PULL_FEATURES]
    return server
