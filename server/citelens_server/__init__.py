"""The CiteLens language server (pygls 2). Not built yet: see the server issue."""
