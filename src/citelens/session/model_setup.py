"""The model judge an editor may use, from the user's settings: the `support_model` table
(the user's editor settings or config file, or a trusted project file) over the
environment the editor was started with. With a model set up, the editor's support run
shares the model verdicts with the CLI's disk cache: what `citelens check --support
--judge llm` cached is shown without calling the model, and what the editor's judge
commands get is there for the CLI. A model is never called from here."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.config.settings import Settings
    from citelens.support.backends import ModelOptions
    from citelens.support.cache import VerdictCache
    from citelens.support.run import SupportRun

MODEL_JUDGES = ("llm", "nli", "cascade")

_shared: dict[str, VerdictCache] = {}  # file path -> its cache
_shared_lock = threading.Lock()


def model_options(settings: Settings) -> ModelOptions:
    from citelens.support.backends import ModelOptions

    return ModelOptions.from_environment(settings.support_model)


def judges_on_save(settings: Settings) -> bool:
    """Judge a saved file with the model: the project (or editor) asks for a model judge,
    the user's `support_model.on_save` enables it, and a model is set up."""
    return (
        settings.support
        and settings.support_judge in MODEL_JUDGES
        and settings.support_model.get("on_save") is True
        and model_options(settings).configured is not None
    )


def model_verdict_cache() -> VerdictCache:
    """The CLI's verdict cache file (`support.sqlite` in the user's cache folder), opened
    once per process; a file that cannot be used is said once in the log, and the
    verdicts stay in memory."""
    from citelens.files.user_cache import cache_root

    path = cache_root() / "support.sqlite"
    with _shared_lock:
        cache = _shared.get(str(path))
        if cache is None:
            from citelens.support.cache import VerdictCache

            cache = _shared[str(path)] = VerdictCache(path)
        return cache


def attach_model(run: SupportRun, settings: Settings) -> SupportRun:
    """`run` with the model verdict cache and the set-up llm model's cached verdicts
    shown (nothing changes when no model is set up)."""
    from citelens.support.backends import cached_verdicts_of
    from citelens.support.errors import JudgeError

    options = model_options(settings)
    if options.configured is None:
        return run
    run.model_cache = model_verdict_cache()
    try:
        run.shown_model = cached_verdicts_of(options)
    except JudgeError:  # a prompt file that cannot be read: the judge command says why
        run.shown_model = None
    return run
