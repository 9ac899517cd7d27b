"""The CiteLens language server (pygls 2): live diagnostics, hovers, quick fixes and
conversions for report runs in any LSP editor.

Glue only: every finding, fix, conversion and alignment comes from `citelens.session`;
this package turns them into LSP messages (positions converted once, at the boundary).
Start it with `python -m citelens_server` or `citelens serve`.
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the server over stdio (or TCP with --tcp, for debugging)."""
    from citelens_server.__main__ import main as run

    return run(argv)
