"""Document URIs and workspace folders as paths, by the engine's one converter."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def uri_path(uri: str) -> Path | None:
    """The file of a `file:` URI (None for any other), by the engine's one converter."""
    if not uri.startswith("file:"):
        return None
    from citelens.session.document_uri import path_of

    return path_of(uri)[1]


def workspace_folders(folder_uris: Iterable[str], root_uri: str | None) -> list[Path]:
    """The folders an `initialize` names: its workspace folders, else its root."""
    uris = list(folder_uris)
    if not uris and root_uri:
        uris = [root_uri]
    return [p for p in map(uri_path, uris) if p is not None]
