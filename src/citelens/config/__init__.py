"""Project settings for `citelens check`: found by walking up from the checked file,
read from `citelens.toml` or `[tool.citelens]` in `pyproject.toml`, overridden by the
command line (`Settings.merged_with`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export
from citelens.config.error import ConfigError

if TYPE_CHECKING:
    from citelens.config.loader import CONFIG_FILES, find_config, load_config, settings_for
    from citelens.config.settings import SETTING_KEYS, SEVERITY_VALUES, Settings, SeverityOverride

# The loader and the settings model load on first use (`ConfigError` alone stays light).
_EXPORTS = {
    **dict.fromkeys(("CONFIG_FILES", "find_config", "load_config", "settings_for"), "citelens.config.loader"),
    **dict.fromkeys(
        ("SETTING_KEYS", "SEVERITY_VALUES", "Settings", "SeverityOverride"), "citelens.config.settings"
    ),
}

__all__ = [
    "CONFIG_FILES",
    "SETTING_KEYS",
    "SEVERITY_VALUES",
    "ConfigError",
    "Settings",
    "SeverityOverride",
    "find_config",
    "load_config",
    "settings_for",
]


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _EXPORTS, name)
