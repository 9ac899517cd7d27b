"""A setting written for the runs of one folder, as an editor asks for it: the engine's
in-place project-file edit (`citelens.config.settings_edit`), with `append` adding to the
list the file is checked with now."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citelens.config.settings_edit import SettingEdit, setting_edit

if TYPE_CHECKING:
    from citelens.session.workspace import Workspace

__all__ = ["SettingEdit", "edit_for"]


def edit_for(
    workspace: Workspace,
    path: Path,
    key: str,
    value: Any,
    *,
    append: bool = False,
    folder: Path | None = None,
) -> SettingEdit:
    """The edit that sets `key = value` for `path`'s folder (`folder`: the workspace folder,
    where a new `citelens.toml` goes when there is no project file)."""
    if append and isinstance(value, list):
        current = list(getattr(workspace.settings_for(path), key, ()) or ())
        value = current + [v for v in value if v not in current]
    return setting_edit(path, key, value, folder_of=folder)
