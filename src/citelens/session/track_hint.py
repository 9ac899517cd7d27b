"""The one line that says which track a run looks like, when that helps: no spec is
configured, or the configured one gives errors and the run clearly looks like another
track. The CLI prints it; the editor offers "Set track spec to X" from the same guess."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citelens.specs.recognise import TrackGuess, recognise_track

if TYPE_CHECKING:
    from citelens.config.settings import Settings


def where_to_set(settings: Settings) -> str:
    """Where the spec setting belongs, in words: the project file in use, else a new one."""
    source = settings.source
    if source is None:
        return "citelens.toml"
    return "pyproject.toml [tool.citelens]" if source.name == "pyproject.toml" else source.name


def guess_for(settings: Settings, text: str, errors: int) -> TrackGuess | None:
    """The guess worth telling (None: nothing to say)."""
    guess = recognise_track(text)
    if guess is None or not guess.confident:
        return None
    current = settings.spec
    if current is None:
        return guess
    if errors == 0 or guess.spec == current or current.startswith(guess.spec + "-"):
        return None  # clean, or a profile of the track it looks like
    return guess


def track_hint(settings: Settings, text: str, errors: int) -> str | None:
    guess = guess_for(settings, text, errors)
    if guess is None:
        return None
    why = f" ({guess.why()})" if guess.reasons else ""
    if settings.spec is None:
        return (
            f"no spec configured; this run looks like {guess.spec}{why}; "
            f"run with --spec {guess.spec} or set it in {where_to_set(settings)}"
        )
    return (
        f"checked as {settings.spec} ({errors} error(s)), but this run looks like {guess.spec}{why}; "
        f"run with --spec {guess.spec} to check it as that"
    )
