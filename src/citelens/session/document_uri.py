"""A document's key and file from its URI or path: light (the stdlib only), so a front end
can name files before the engine is loaded."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse


def path_of(uri_or_path: str | Path) -> tuple[str, Path | None]:
    """(document key, file path or None): a `file:` URI or a path gives both (the key is
    the path's canonical URI); any other URI (`untitled:`) has no path."""
    if isinstance(uri_or_path, Path):
        path = uri_or_path.absolute()
        return path.as_uri(), path
    text = str(uri_or_path)
    known = _of_uri(text)
    if known is not None:
        return known
    path = Path(text).absolute()
    return path.as_uri(), path


@lru_cache(maxsize=4096)
def _of_uri(text: str) -> tuple[str, Path | None] | None:
    """`path_of` of a URI (None: a plain path, which depends on the working folder). Kept:
    an editor's every message names its document by URI, and parsing one costs more than
    the message's handling."""
    parsed = urlparse(text)
    if parsed.scheme == "file":
        raw = unquote(parsed.path)
        if os.name == "nt" and raw.startswith("/") and raw[2:3] == ":":
            raw = raw[1:]  # /c:/x -> c:/x
        path = Path(raw)
        return path.as_uri(), path
    if len(parsed.scheme) > 1:  # a URI (a one-letter scheme is a Windows drive)
        return text, None
    return None
