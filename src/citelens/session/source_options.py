"""A project file's document sources with options that cannot be used are a settings
error on their line (`retries=2000`, `timeout=inf`), found when the file is loaded,
rather than a lookup that fails later. The corpus layer says which values are allowed."""

from __future__ import annotations

from citelens.config.settings import Settings


def check_project_sources(settings: Settings) -> None:
    """Raise `ConfigError` on the line of `corpora` for the first unusable source option."""
    if settings.source is None or not settings.corpora:
        return
    from citelens.corpus.opening import option_problem, split_spec

    for entry in settings.corpora:
        if problem := option_problem(entry):
            from citelens.config.error import ConfigError
            from citelens.config.loader import CONFIG_FILES
            from citelens.source.toml_lines import TomlLines

            table = CONFIG_FILES.get(settings.source.name, ())
            try:
                text = settings.source.read_text(encoding="utf-8-sig")
                line = TomlLines(text).line_of(table, "corpora")
            except (OSError, UnicodeDecodeError):
                line = None
            raise ConfigError(f"'corpora': {split_spec(entry)[0]}: {problem}", settings.source, line)
