"""Results that are already JSON text, sent as they are."""

from __future__ import annotations

import json
from typing import Any


class Json:
    """A handler result that is already JSON text (ASCII, as `json.dumps` writes it): sent
    as is. Publishing thousands of diagnostics through cattrs and `json.dumps` on every
    keystroke would cost more than checking the edit."""

    __slots__ = ("text",)

    def __init__(self, value: Any = None, *, text: str | None = None) -> None:
        self.text = text if text is not None else json.dumps(value)
