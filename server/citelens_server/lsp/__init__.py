"""LSP values from engine values: positions in the negotiated encoding, diagnostics as
JSON text, workspace edits, Markdown. Imports nothing else of the server."""
