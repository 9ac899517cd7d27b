"""The keys a project file's top table holds besides the settings of a run: which files
are runs at all (`exclude`, `extend-exclude`, `respect-gitignore`) and the per-folder
settings (`overrides`). They belong to the project, so `[[overrides]]` cannot set them."""

from __future__ import annotations

from typing import Final

PROJECT_KEYS: Final[tuple[str, ...]] = ("exclude", "extend-exclude", "respect-gitignore", "overrides")
