"""Writing JSON text that any UTF-8 writer can write and any JSON reader reads back.

`json.dumps(..., ensure_ascii=False)` keeps non-ASCII characters as they are, which is how
run files are usually written; but a lone UTF-16 surrogate (read from `"\\ud800"`) is not
a character, and encoding it as UTF-8 fails. It can only occur inside a JSON string, so
it is written back as the escape it was read from and the text stays the same JSON value.

One string has no JSON spelling at all: a lone high surrogate directly followed by a lone
low one. Written as two escapes (`\\ud800\\udc00`) it reads back as one character
(U+10000) in every JSON reader, ours included, so no JSON text read from a file can hold
it; only code that builds strings can. Rather than write a different value than it was
given, `json_dumps` refuses it with `UnwritableString`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from citelens.source.json_scan import LONE_SURROGATE

#: a high half directly followed by a low half, each alone in the value (a real pair
#: would be one character here): the two escapes would read back as one character
_SPLIT_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


class UnwritableString(ValueError):
    """A string that no JSON text holds: its two lone surrogate halves would read back as one."""


def json_dumps(value: Any, **options: Any) -> str:
    """`json.dumps` with non-ASCII kept and lone surrogates escaped, so that the text
    encodes as UTF-8 and reads back as `value`; `UnwritableString` when none can."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if LONE_SURROGATE.search(text) is None:
        return text
    split = _SPLIT_PAIR.search(text)
    if split is not None:
        high, low = (ord(c) for c in split.group())
        joined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        raise UnwritableString(
            f"a string holds a lone surrogate \\u{high:04x} directly followed by a lone \\u{low:04x}; "
            f"written as JSON they would read back as one character (U+{joined:04X}), so no JSON "
            "text holds this string: remove or replace one of the halves"
        )
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
