"""The connection: the server object and its state, the protocol (the one module that
touches pygls internals), lifecycle and settings, checks off the event loop, progress and
logging. Imports `lsp/`, never `features/`."""
