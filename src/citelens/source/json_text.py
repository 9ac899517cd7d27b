"""Writing JSON text that any UTF-8 writer can write.

`json.dumps(..., ensure_ascii=False)` keeps non-ASCII characters as they are, which is how
run files are usually written; but a lone UTF-16 surrogate (read from `"\\ud800"`) is not
a character, and encoding it as UTF-8 fails. It can only occur inside a JSON string, so
it is written back as the escape it was read from and the text stays the same JSON value.
"""

from __future__ import annotations

import json
from typing import Any

from citelens.source.json_scan import LONE_SURROGATE


def json_dumps(value: Any, **options: Any) -> str:
    """`json.dumps` with non-ASCII kept and lone surrogates escaped."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if LONE_SURROGATE.search(text) is None:
        return text
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
