"""CiteLens: validate, explain and convert TREC RAG-family report submissions.

Importing this package must stay cheap: sub-packages load their heavy parts lazily, and
the scripting calls below (`citelens.check_file` and friends, see `citelens.scripting`)
load on first use.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_SCRIPTING = (
    "Conversion",
    "FindingRow",
    "Findings",
    "align_sentence",
    "check_file",
    "check_text",
    "convert_file",
    "get_document",
)

__all__ = ["__version__", *_SCRIPTING]


def __getattr__(name: str) -> Any:
    if name in _SCRIPTING:
        from citelens import scripting

        value = getattr(scripting, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'citelens' has no attribute {name!r}")
