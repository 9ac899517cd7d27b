"""CiteLens: validate, explain and convert TREC RAG-family report submissions.

Importing this package must stay cheap: sub-packages load their heavy parts lazily, and
the scripting calls below (`citelens.check_file` and friends, see `citelens.scripting`)
load on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
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


def lazy_export(namespace: dict[str, Any], exports: Mapping[str, str], name: str) -> Any:
    """The one loader behind every package's `__getattr__`: `name` from the module
    `exports` maps it to, kept in the package's `namespace` (its `globals()`) so that it
    loads once. An unknown name is an AttributeError, as Python's own."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value


_MODULES = dict.fromkeys(_SCRIPTING, "citelens.scripting")


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _MODULES, name)
