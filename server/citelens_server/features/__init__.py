"""One module per LSP area (sync, diagnostics, hover, code actions, navigation, symbols,
commands, ...): plain handler functions over `citelens.session`, listed in each module's
`FEATURES` / `COMMANDS` and registered by `citelens_server.app`."""
