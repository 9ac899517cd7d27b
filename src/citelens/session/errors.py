"""The problems of a user's settings, spec or topics file: what a front end shows at the
file that has them (never a crash), as opposed to a failure of the check itself."""

from __future__ import annotations

from citelens.check.spec_table import SpecError
from citelens.config.error import ConfigError
from citelens.topics.model import TopicFileError

SETTINGS_ERRORS: tuple[type[Exception], ...] = (ConfigError, SpecError, TopicFileError)

__all__ = ["SETTINGS_ERRORS", "ConfigError", "SpecError", "TopicFileError"]
