"""Project settings for `citelens check`: found by walking up from the checked file,
read from `citelens.toml` or `[tool.citelens]` in `pyproject.toml`, overridden by the
command line (`Settings.merged_with`)."""

from __future__ import annotations

from citelens.config.error import ConfigError
from citelens.config.loader import CONFIG_FILES, find_config, load_config, settings_for
from citelens.config.settings import SETTING_KEYS, SEVERITY_VALUES, Settings, SeverityOverride

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
