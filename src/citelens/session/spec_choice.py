"""The specs to offer for a file, for an editor's spec picker: every built-in spec with the
file's errors and warnings under it, and, when no spec is configured, the track the file
looks like first (`citelens.specs.recognise`), so the laxest spec is not what comes first."""

from __future__ import annotations

from typing import Any

from citelens.specs.recognise import TrackGuess, recognise_track

__all__ = ["TrackGuess", "recognise_track", "spec_choices"]

#: the lines of a file each spec is checked on (each spec is a whole check)
SAMPLE_LINES = 50


def _sample(text: str) -> str:
    cut = 0
    for _ in range(SAMPLE_LINES):
        nxt = text.find("\n", cut)
        if nxt < 0:
            return text
        cut = nxt + 1
    return text[:cut]


def spec_choices(text: str, active: str | None) -> dict[str, Any]:
    """`{specs: [{id, description, errors, warnings}], guess}` for the start of `text`."""
    from citelens.session.spec_ranking import rank_specs
    from citelens.specs import builtin_specs

    specs = builtin_specs()
    text = _sample(text)
    fits = {f.spec: f for f in rank_specs(text)} if text.strip() else {}
    guess = recognise_track(text) if text.strip() and active is None else None
    order = list(fits) or sorted(specs)
    said = None
    if guess is not None and guess.confident:
        order.remove(guess.spec)
        order.insert(0, guess.spec)
        said = {"spec": guess.spec, "confidence": guess.confidence, "reasons": list(guess.reasons)}
    out = []
    for spec_id in order:
        entry: dict[str, Any] = {"id": spec_id, "description": specs[spec_id].description}
        if spec_id in fits:
            entry.update(errors=fits[spec_id].errors, warnings=fits[spec_id].warnings)
        out.append(entry)
    return {"specs": out, "guess": said}
