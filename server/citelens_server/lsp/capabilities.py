"""What the client said it can do: one dotted lookup into lsprotocol's capabilities."""

from __future__ import annotations

from typing import Any


def supports(capabilities: Any, dotted: str) -> bool:
    """True if `capabilities.<dotted path>` is set and truthy (any missing step: False)."""
    node = capabilities
    for part in dotted.split("."):
        node = getattr(node, part, None)
        if node is None:
            return False
    return bool(node)
